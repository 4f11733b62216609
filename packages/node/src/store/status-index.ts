import { createHash } from 'node:crypto';
import type { StoredTask, TaskStatusRecord, TaskSummary } from '@troupe/core';
import { applyStatusRecord, isFinalStatus, summaryOf } from '@troupe/core/store';
import { openRegularFile } from './regular-files.js';
import { parseStatusLine } from './status-log.js';
import { ownerOf, type TaskOwner } from './task-owner.js';

/**
 * The file store's index of `tasks.jsonl`, kept in memory and brought up to date by reading only
 * what was appended since the last read (by this process or another). A log rewritten by `prune`
 * (a new file) or cut shorter is read again from the start. A line not yet complete is left for
 * the next read (a writer may be in the middle of it). Lines that do not parse are skipped, as
 * `loadTasks` skips them (it reports them; the index does not repeat its warnings).
 *
 * Listing and finding tasks costs the new lines, not the whole log: a store of 10,000 finished
 * tasks lists its first page without reading them all again.
 */
export class StatusIndex {
  private file: { dev: number; ino: number } | undefined;
  private offset = 0;
  private tasks = new Map<string, StoredTask>();
  private summaries = new Map<string, TaskSummary>();
  /** Digests of the lines applied: an exact duplicate (written twice around a prune) counts once. */
  private seen = new Set<string>();
  /** One copy of each system prompt: every task of an agent carries the same text. */
  private prompts = new Map<string, string>();
  private reading: Promise<void> = Promise.resolve();
  /** Who wrote the last record of each unfinished task (see `ownerOf`); ended tasks are left out. */
  private owners = new Map<string, TaskOwner | undefined>();
  private ended = new Set<string>();

  constructor(private readonly path: string) {}

  /** The task with `taskId`, from the log as it is now. */
  async get(taskId: string): Promise<StoredTask | undefined> {
    await this.refresh();
    return this.tasks.get(taskId);
  }

  /** Every task's summary, from the log as it is now. */
  async all(): Promise<Iterable<TaskSummary>> {
    await this.refresh();
    return this.summaries.values();
  }

  /** The writer of the last record of each unfinished task, from the log as it is now. */
  async unfinishedOwners(): Promise<ReadonlyMap<string, TaskOwner | undefined>> {
    await this.refresh();
    return this.owners;
  }

  /** Reads what was appended since the last read; one read at a time. */
  refresh(): Promise<void> {
    const next = this.reading.then(() => this.readNew());
    this.reading = next.catch(() => {});
    return next;
  }

  private reset(): void {
    this.file = undefined;
    this.offset = 0;
    this.tasks = new Map();
    this.summaries = new Map();
    this.seen = new Set();
    this.prompts = new Map();
    this.owners = new Map();
    this.ended = new Set();
  }

  private async readNew(): Promise<void> {
    const handle = await openRegularFile(this.path);
    if (!handle) {
      this.reset();
      return;
    }
    try {
      const { dev, ino, size } = await handle.stat();
      if (!this.file || this.file.dev !== dev || this.file.ino !== ino || size < this.offset) {
        this.reset();
        this.file = { dev, ino };
      }
      if (size === this.offset) return;
      const bytes = Buffer.alloc(size - this.offset);
      const { bytesRead } = await handle.read(bytes, 0, bytes.length, this.offset);
      const end = bytes.lastIndexOf(0x0a, bytesRead - 1);
      if (end < 0) return;
      this.offset += end + 1;
      for (const text of bytes.toString('utf8', 0, end).split('\n')) this.apply(text);
    } finally {
      await handle.close();
    }
  }

  private apply(text: string): void {
    if (text.trim() === '') return;
    const digest = createHash('sha1').update(text).digest('base64');
    if (this.seen.has(digest)) return;
    this.seen.add(digest);
    const parsed = parseStatusLine(text);
    if (!parsed.ok) return;
    const record: TaskStatusRecord = parsed.value;
    if (record.spec) record.spec.system = this.prompt(record.spec.system);
    // As `unfinishedTasksRunElsewhere` reads the log: a task that ended once stays ended.
    if (isFinalStatus(record.status)) {
      this.ended.add(record.taskId);
      this.owners.delete(record.taskId);
    } else if (!this.ended.has(record.taskId)) this.owners.set(record.taskId, ownerOf(record));
    const changed = applyStatusRecord(this.tasks, record);
    if (changed) this.summaries.set(record.taskId, summaryOf(changed));
  }

  private prompt(text: string): string {
    const known = this.prompts.get(text);
    if (known !== undefined) return known;
    this.prompts.set(text, text);
    return text;
  }
}
