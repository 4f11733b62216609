import { isFinalStatus } from '../persistence/statuses.js';
import { applyStatusRecord, summaryOf } from '../persistence/task-documents.js';
import type { StoredTask, TaskStatusRecord, TaskSummary } from '../persistence/types.js';
import type { StatusRead, StoragePort } from './storage-port.js';

/**
 * The status log folded in memory and kept up to date by reading only what was appended since
 * the last read (see `StoragePort.readStatus`): what `listTasks`, `getTask` and the owner checks
 * answer from when the port keeps no index of its own. A log the port reports as replaced is
 * folded again from the start. One read at a time.
 */
export class TaskIndex {
  private position: unknown;
  private tasks = new Map<string, StoredTask>();
  private summaryMap = new Map<string, TaskSummary>();
  /** One copy of each system prompt: every task of an agent carries the same text. */
  private prompts = new Map<string, string>();
  /** The last record of each task that has not ended (whatever its task), for owner checks. */
  private unfinished = new Map<string, TaskStatusRecord>();
  private ended = new Set<string>();
  private reading: Promise<void> = Promise.resolve();

  constructor(private readonly port: StoragePort) {}

  /** Reads what was appended since the last read. */
  refresh(): Promise<void> {
    const next = this.reading.then(async () => this.apply(await this.port.readStatus(this.position)));
    this.reading = next.catch(() => {});
    return next;
  }

  get(taskId: string): StoredTask | undefined {
    return this.tasks.get(taskId);
  }

  summaries(): Iterable<TaskSummary> {
    return this.summaryMap.values();
  }

  /**
   * The last status record of each task that never ended: a backend that stamps records with
   * the process that wrote them tells from it who runs the task.
   */
  lastRecordsOfUnfinished(): ReadonlyMap<string, TaskStatusRecord> {
    return this.unfinished;
  }

  /** Drops tasks (pruned) from the index. */
  forget(taskIds: Iterable<string>): void {
    for (const taskId of taskIds) {
      this.tasks.delete(taskId);
      this.summaryMap.delete(taskId);
    }
  }

  private apply(read: StatusRead<unknown>): void {
    if (read.restarted) {
      this.tasks = new Map();
      this.summaryMap = new Map();
      this.prompts = new Map();
      this.unfinished = new Map();
      this.ended = new Set();
    }
    this.position = read.position;
    for (const record of read.records) {
      if (record.spec) record.spec.system = this.prompt(record.spec.system);
      // A task that ended once stays ended, whatever later records say.
      if (isFinalStatus(record.status)) {
        this.ended.add(record.taskId);
        this.unfinished.delete(record.taskId);
      } else if (!this.ended.has(record.taskId)) this.unfinished.set(record.taskId, record);
      const changed = applyStatusRecord(this.tasks, record);
      if (changed) this.summaryMap.set(record.taskId, summaryOf(changed));
    }
  }

  private prompt(text: string): string {
    const known = this.prompts.get(text);
    if (known !== undefined) return known;
    this.prompts.set(text, text);
    return text;
  }
}
