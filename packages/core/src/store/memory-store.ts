import type {
  JournalEntry,
  TaskResultDocument,
  TaskSnapshotDocument,
  TaskStatusRecord,
  TaskStore,
} from '../persistence/types.js';
import { createTaskStore } from './port-store.js';
import type { StatusRead, StorageReads, WritesOneByOne } from './storage-port.js';

/** Where a reader of the memory log stands: a prune starts a new generation of the log. */
interface MemoryPosition {
  generation: number;
  length: number;
}

/** A {@link StoragePort} in memory. Documents are kept by reference; snapshots as their producers. */
class MemoryStorage implements StorageReads<MemoryPosition>, WritesOneByOne {
  readonly location = 'memory';
  readonly records: TaskStatusRecord[] = [];
  private generation = 0;
  private readonly journals = new Map<string, JournalEntry[]>();
  private readonly snapshots = new Map<string, () => TaskSnapshotDocument>();
  private readonly results = new Map<string, TaskResultDocument>();

  appendStatus(records: readonly TaskStatusRecord[]): undefined {
    for (const record of records) this.records.push(record);
    return undefined;
  }

  appendJournal(taskId: string, entries: readonly JournalEntry[]): undefined {
    const journal = this.journals.get(taskId);
    if (journal) for (const entry of entries) journal.push(entry);
    else this.journals.set(taskId, [...entries]);
    return undefined;
  }

  putSnapshot(taskId: string, produce: () => TaskSnapshotDocument): undefined {
    this.snapshots.set(taskId, produce);
    return undefined;
  }

  putResult(taskId: string, document: TaskResultDocument): undefined {
    this.results.set(taskId, document);
    return undefined;
  }

  async readStatus(position?: MemoryPosition): Promise<StatusRead<MemoryPosition>> {
    const restarted = position !== undefined && position.generation !== this.generation;
    const from = position === undefined || restarted ? 0 : position.length;
    return {
      records: this.records.slice(from),
      warnings: [],
      position: { generation: this.generation, length: this.records.length },
      restarted,
    };
  }

  async readJournal(taskId: string) {
    return { entries: (this.journals.get(taskId) ?? []).map((value) => ({ value })), warnings: [] };
  }

  async readSnapshot(taskId: string): Promise<TaskSnapshotDocument | undefined> {
    return this.snapshots.get(taskId)?.();
  }

  async readResult(taskId: string): Promise<TaskResultDocument | undefined> {
    return this.results.get(taskId);
  }

  async remove(taskIds: ReadonlySet<string>): Promise<void> {
    if (taskIds.size === 0) return;
    let kept = 0;
    for (const record of this.records) if (!taskIds.has(record.taskId)) this.records[kept++] = record;
    this.records.length = kept;
    this.generation++;
    for (const taskId of taskIds) {
      this.journals.delete(taskId);
      this.snapshots.delete(taskId);
      this.results.delete(taskId);
    }
  }
}

/**
 * A `TaskStore` in memory: the default. Tasks survive a `runtime.restore()` within the process
 * (pass the same store to a new runtime), not a restart. Documents are kept by reference (the
 * runtime never mutates what it writes); a snapshot is produced when it is read. `records` is
 * the status log as written.
 */
export function createMemoryStore(): TaskStore & {
  /** Removes finished tasks that ended before `olderThan` (ms since the epoch); returns how many. */
  prune(options: { olderThan: number }): Promise<number>;
  readonly records: readonly TaskStatusRecord[];
} {
  const storage = new MemoryStorage();
  // No close(): a runtime's shutdown leaves the store to the next runtime over it.
  const {
    close: _close,
    flushNow: _flushNow,
    notify: _notify,
    unfinishedRecords: _unfinished,
    ...store
  } = createTaskStore(storage, { durability: 'sync' });
  return { ...store, records: storage.records };
}
