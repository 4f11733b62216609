import { open, rename, stat, unlink } from 'node:fs/promises';
import type { StoredTask, TaskPage, TaskQuery, TaskStatusRecord, TaskSummary } from '@troupe/core';
import {
  applyStatusRecord,
  checkQuery,
  decodeCursor,
  encodeCursor,
  isFinalStatus,
  matchesQuery,
  newestFirst,
  summaryOf,
  type TaskHistoryIndex,
  type TaskPosition,
} from '@troupe/core/store';
import { type IndexHeader, IndexLines, readIndexHeader } from './history-index-file.js';
import { parseStatusLine } from './status-log.js';
import { type LineSpan, readStatusLog, type StatusLogPosition } from './status-log-reader.js';
import type { StorePaths } from './task-file-names.js';

/** One line of the index: its sort key, where the task's spec is in the log, its summary. */
interface IndexEntry {
  k: [createdAt: number, taskId: string];
  o: number;
  n: number;
  s: TaskSummary;
}

const MARK_EVERY = 256;
/** A tail this long (status records past the index) is folded into the index. */
const compactAfter = (count: number) => Math.max(1_000, Math.floor(count / 8));

/** Status records appended past the index, folded: new tasks whole, updates of indexed ones. */
class Tail {
  readonly created = new Map<string, StoredTask>();
  readonly spans = new Map<string, LineSpan>();
  readonly updates = new Map<string, TaskStatusRecord[]>();
  records = 0;

  apply(records: readonly TaskStatusRecord[], spans: readonly LineSpan[]): void {
    records.forEach((record, index) => {
      this.records++;
      if (record.spec || this.created.has(record.taskId)) {
        const created = applyStatusRecord(this.created, record);
        if (created && record.spec) this.spans.set(record.taskId, spans[index] as LineSpan);
        return;
      }
      const updates = this.updates.get(record.taskId);
      if (updates) updates.push(record);
      else this.updates.set(record.taskId, [record]);
    });
  }

  /** An indexed task's summary with the updates in the tail applied, as `applyStatusRecord` would. */
  summary(summary: TaskSummary): TaskSummary {
    let current = summary;
    for (const record of this.updates.get(summary.taskId) ?? []) {
      if (isFinalStatus(current.status)) break;
      const { result: _previous, ...rest } = current;
      const result = record.result ?? current.result;
      current = result
        ? { ...rest, status: record.status, updatedAt: record.at, result }
        : { ...rest, status: record.status, updatedAt: record.at };
    }
    return current;
  }

  /** The tasks created in the tail, newest first. */
  newest(): TaskSummary[] {
    return [...this.created.values()].map(summaryOf).sort(newestFirst);
  }
}

/**
 * The file store's history index: `tasks.index` holds one summary per task, sorted newest first,
 * folded from `tasks.jsonl` up to an offset its last line names; what was appended to the log
 * since is read and folded in memory (the tail). A page is read from the start of the index (or
 * from the mark before its cursor) merged with the tail, so its cost is the page and the tail, not
 * the store. When the tail grows past an eighth of the index (at least 1,000 records), the index
 * is rewritten with it (in the background after writes, at `close()`, or before a read). A log
 * replaced by prune, or an index missing or unreadable, is rebuilt from the whole log.
 */
export class FileHistoryIndex implements TaskHistoryIndex {
  private header: IndexHeader | undefined;
  private indexFile: { dev: number; ino: number; mtimeMs: number } | undefined;
  private position: StatusLogPosition | undefined;
  private tail = new Tail();
  private queue: Promise<unknown> = Promise.resolve();
  private compacting: Promise<void> | undefined;

  constructor(
    private readonly paths: StorePaths,
    private readonly fsync: boolean,
  ) {}

  list(query: TaskQuery): Promise<TaskPage> {
    return this.serial(async () => {
      await this.refresh(true);
      return this.page(query);
    });
  }

  get(taskId: string): Promise<StoredTask | undefined> {
    return this.serial(async () => {
      await this.refresh(true);
      const created = this.tail.created.get(taskId);
      if (created) return created;
      if (!this.header) return undefined;
      const found = await new IndexLines(this.paths.index, this.header).find(taskId);
      if (!found) return undefined;
      const entry = JSON.parse(found) as IndexEntry;
      const spec = await this.specAt(entry);
      if (!spec) return undefined;
      const summary = this.tail.summary(entry.s);
      const task: StoredTask = { spec, status: summary.status, updatedAt: summary.updatedAt };
      if (summary.result) task.result = summary.result;
      return task;
    });
  }

  /** Folds a long tail into the index in the background (after a store's writes). */
  compactSoon(): void {
    this.compacting ??= this.serial(() => this.refresh(true))
      .catch(() => {})
      .finally(() => {
        this.compacting = undefined;
      });
  }

  /** Waits for a background fold, then folds any tail of 1,000 records or more (at `close()`). */
  async settle(): Promise<void> {
    await this.compacting;
    await this.serial(async () => {
      await this.refresh(false);
      if (this.tail.records >= 1_000 || (this.tail.records > 0 && !this.header)) await this.compact();
    }).catch(() => {});
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => {});
    return next;
  }

  /** Brings the header and the tail up to date; with `fold`, folds a long tail into the index. */
  private async refresh(fold: boolean): Promise<void> {
    const file = await stat(this.paths.index).catch(() => undefined);
    const identity = file && { dev: file.dev, ino: file.ino, mtimeMs: file.mtimeMs };
    if (
      identity?.dev !== this.indexFile?.dev ||
      identity?.ino !== this.indexFile?.ino ||
      identity?.mtimeMs !== this.indexFile?.mtimeMs
    ) {
      this.indexFile = identity;
      this.header = identity ? await readIndexHeader(this.paths.index).catch(() => undefined) : undefined;
      this.tail = new Tail();
      this.position = this.header && {
        dev: this.header.dev,
        ino: this.header.ino,
        offset: this.header.offset,
        line: this.header.line,
        seen: new Set(),
      };
    }
    const read = await readStatusLog(this.paths.tasks, this.position);
    if (read.restarted) {
      // The log is not the one the index folds (pruned, replaced): the index is of no use.
      this.header = undefined;
      this.tail = new Tail();
    }
    this.position = read.position;
    this.tail.apply(read.records, read.spans);
    if (fold && this.tail.records > compactAfter(this.header?.count ?? 0)) await this.compact();
  }

  /** Rewrites the index with the tail folded in, atomically (a temporary file, then a rename). */
  private async compact(): Promise<void> {
    const position = this.position;
    if (!position || position.dev < 0) return;
    const temporary = `${this.paths.index}.${process.pid}.${Date.now()}.tmp`;
    const output = await open(temporary, 'w');
    const marks: IndexHeader['marks'] = [];
    let written = 0;
    let count = 0;
    let chunk = '';
    const emit = async (key: TaskPosition, text: string) => {
      if (count % MARK_EVERY === 0)
        marks.push([key.createdAt, key.taskId, written + Buffer.byteLength(chunk)]);
      count++;
      chunk += `${text}\n`;
      if (chunk.length >= 1 << 20) {
        const bytes = Buffer.from(chunk);
        await output.write(bytes);
        written += bytes.length;
        chunk = '';
      }
    };
    try {
      const created = this.tail.newest();
      let next = 0;
      const emitCreatedBefore = async (key: TaskPosition | undefined) => {
        while (next < created.length && (!key || newestFirst(created[next] as TaskSummary, key) < 0)) {
          const summary = created[next++] as TaskSummary;
          const span = this.tail.spans.get(summary.taskId) as LineSpan;
          const entry: IndexEntry = {
            k: [summary.createdAt, summary.taskId],
            o: span.offset,
            n: span.length,
            s: summary,
          };
          await emit(summary, JSON.stringify(entry));
        }
      };
      if (this.header) {
        for await (const line of new IndexLines(this.paths.index, this.header).from(0)) {
          const key = IndexLines.keyOf(line);
          await emitCreatedBefore(key);
          const duplicate = created.findIndex((summary) => summary.taskId === key.taskId);
          if (duplicate >= next) created.splice(duplicate, 1);
          if (!this.tail.updates.has(key.taskId)) await emit(key, line);
          else {
            const entry = JSON.parse(line) as IndexEntry;
            await emit(key, JSON.stringify({ ...entry, s: this.tail.summary(entry.s) }));
          }
        }
      }
      await emitCreatedBefore(undefined);
      const header: IndexHeader = {
        v: 1,
        dev: position.dev,
        ino: position.ino,
        offset: position.offset,
        line: position.line,
        count,
        marks,
      };
      chunk += `${JSON.stringify(header)}\n`;
      await output.write(Buffer.from(chunk));
      if (this.fsync) await output.sync();
      await output.close();
      await rename(temporary, this.paths.index);
    } catch (error) {
      await output.close().catch(() => {});
      await unlink(temporary).catch(() => {});
      throw error;
    }
    // The index now holds the tail: read from the new file and the same log position on.
    this.indexFile = undefined;
    this.header = undefined;
    this.position = undefined;
    this.tail = new Tail();
    await this.refresh(false);
  }

  private async page(query: TaskQuery): Promise<TaskPage> {
    const size = checkQuery(query);
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const chosen: TaskSummary[] = [];
    const created = this.tail.newest().filter((summary) => !after || newestFirst(summary, after) > 0);
    let next = 0;
    const take = (summary: TaskSummary) => {
      if (matchesQuery(summary, query)) chosen.push(summary);
      return chosen.length > size;
    };
    const takeCreatedBefore = (key: TaskPosition | undefined) => {
      while (next < created.length && (!key || newestFirst(created[next] as TaskSummary, key) < 0))
        if (take(created[next++] as TaskSummary)) return true;
      return false;
    };
    if (this.header) {
      const lines = new IndexLines(this.paths.index, this.header);
      for await (const line of lines.from(after ? lines.markBefore(after) : 0)) {
        const key = IndexLines.keyOf(line);
        if (after && newestFirst(key, after) <= 0) continue;
        if (takeCreatedBefore(key)) break;
        if (this.tail.created.has(key.taskId)) {
          // A second task.queued record of an indexed task: the first one counts, as in a fold.
          const index = chosen.findIndex((summary) => summary.taskId === key.taskId);
          if (index >= 0) chosen.splice(index, 1);
          const waiting = created.findIndex((summary) => summary.taskId === key.taskId);
          if (waiting >= next) created.splice(waiting, 1);
        }
        if (take(this.tail.summary((JSON.parse(line) as IndexEntry).s))) break;
      }
    }
    if (chosen.length <= size) takeCreatedBefore(undefined);
    const tasks = chosen.slice(0, size);
    const last = tasks[tasks.length - 1];
    return chosen.length > size && last ? { tasks, cursor: encodeCursor(last) } : { tasks };
  }

  /** The spec of an indexed task, read from its `task.queued` line in the log. */
  private async specAt(entry: IndexEntry): Promise<StoredTask['spec'] | undefined> {
    const handle = await open(this.paths.tasks, 'r');
    try {
      const bytes = Buffer.alloc(entry.n);
      await handle.read(bytes, 0, entry.n, entry.o);
      const parsed = parseStatusLine(bytes.toString('utf8'));
      return parsed.ok && parsed.value.taskId === entry.s.taskId ? parsed.value.spec : undefined;
    } finally {
      await handle.close();
    }
  }
}
