import type { PersistenceError } from '../errors.js';
import type {
  JournalEntry,
  StoredTask,
  StoreWarning,
  TaskPage,
  TaskQuery,
  TaskResultDocument,
  TaskSnapshotDocument,
  TaskStatusRecord,
} from '../persistence/types.js';

/** A value, or a promise of it: a port may write synchronously (files) or not (IndexedDB, SQL). */
export type MaybePromise<T> = T | Promise<T>;

/**
 * What a port's write returns: nothing when everything was written, or the writes it refused for
 * good (a value with no JSON form, a snapshot that could not be produced). Refused writes are
 * reported at the next `flush()` and not tried again; a write that throws is kept and tried again.
 */
export type PortWrite = MaybePromise<undefined | readonly PersistenceError[]>;

/** One record read back, with its 1-based line where the storage has lines (for warnings). */
export interface StoredLine<T> {
  value: T;
  line?: number;
}

/**
 * Status records read from a position of the status log on. `position` is where the next read
 * starts; `restarted` says the log was replaced (a prune rewrote it) so the records are the whole
 * log again and whatever was folded before must be dropped.
 */
export interface StatusRead<TPosition> {
  records: readonly TaskStatusRecord[];
  warnings: StoreWarning[];
  position: TPosition;
  restarted: boolean;
}

/**
 * A persistent index of task summaries kept by the storage itself (SQL, a sorted index file):
 * when a port has one, `listTasks` and `getTask` are answered by it instead of by folding the
 * status log in memory. It must agree with the fold of the status log (see `foldStatusRecords`).
 */
export interface TaskHistoryIndex {
  /** A page of task summaries matching `query`, newest first (what `listTasks` returns). */
  list(query: TaskQuery): Promise<TaskPage>;
  /** One task's summary; undefined when the index has no such task (what `getTask` returns). */
  get(taskId: string): Promise<StoredTask | undefined>;
  /**
   * Every task, oldest first, with what could not be read as warnings (what `loadTasks` returns).
   * Optional: without it `loadTasks` folds the whole status log.
   */
  all?(): Promise<{ tasks: StoredTask[]; warnings: StoreWarning[] }>;
  /**
   * The finished tasks that ended before `olderThan` (ms since the epoch): the tasks `prune`
   * removes. Optional: without it prune chooses from the status log folded in memory.
   */
  endedBefore?(olderThan: number): Promise<Iterable<string>>;
}

/**
 * A message published once every write accepted before it is stored, never before (an outbox):
 * e.g. Postgres's `NOTIFY`, which tells other processes of a task's end only when they can read
 * it. Kept and sent again with the writes when they fail; dropped with them when the port drops
 * the writes of `taskId` (a fenced task). Notices ride a batch ({@link PortBatch}): a port that
 * writes one by one has no transaction to send them in, and they are dropped.
 */
export interface PortNotice {
  /** Where it goes (a Postgres channel, a broadcast channel's name). */
  channel: string;
  /** The task it is about, if any. */
  taskId?: string;
  /** What it says. */
  payload: string;
}

/**
 * Everything one flush writes, for a port that writes it in one transaction (IndexedDB, SQL):
 * journal entries per task, the latest snapshot per task (as its producer: a producer that throws
 * is a refused write, the rest is written), results, and status records in the order appended.
 */
export interface PortBatch {
  /** New journal entries, by task id, in order. */
  journals: ReadonlyMap<string, readonly JournalEntry[]>;
  /** The latest snapshot of each task, by task id, as the function that makes its document. */
  snapshots: ReadonlyMap<string, () => TaskSnapshotDocument>;
  /** Finished tasks' result documents, by task id. */
  results: ReadonlyMap<string, TaskResultDocument>;
  /** Status records, in the order appended. */
  statuses: readonly TaskStatusRecord[];
  /** Notices to publish when the batch is stored, in the order given (see {@link PortNotice}). */
  notices: readonly PortNotice[];
}

/** A port that takes each kind of write on its own (files), in the order described on {@link StoragePort}. */
export interface WritesOneByOne {
  /** Appends status records to the status log, in order. */
  appendStatus(records: readonly TaskStatusRecord[]): PortWrite;
  /** Appends entries to one task's journal, in order. */
  appendJournal(taskId: string, entries: readonly JournalEntry[]): PortWrite;
  /**
   * Stores the task's latest snapshot. `produce` makes the document; a port that writes at once
   * calls it now, one that keeps values in memory may keep the function and call it when read.
   */
  putSnapshot(taskId: string, produce: () => TaskSnapshotDocument): PortWrite;
  /** Stores a finished task's result document. */
  putResult(taskId: string, document: TaskResultDocument): PortWrite;
  writeBatch?: never;
}

/**
 * A port that writes a whole flush at once: it lands whole or not at all (a write that throws is
 * kept whole by the store and tried again at the next flush).
 */
export interface WritesInBatches {
  /** Writes everything one flush has, in one transaction. */
  writeBatch(batch: PortBatch): PortWrite;
  appendStatus?: never;
  appendJournal?: never;
  putSnapshot?: never;
  putResult?: never;
}

/**
 * What every port reads and removes; see {@link StoragePort}.
 */
export interface StorageReads<TPosition = unknown> {
  /** Where the data lives (a directory, a database), for messages. */
  readonly location: string;
  /**
   * Checks a task id before it is used (e.g. as a file name); returns it, or throws a
   * `ValidationError` naming it. Optional: without it any string is accepted.
   */
  checkTaskId?(taskId: unknown): string;
  /** Called once after each flush that wrote something (e.g. to fsync a directory). Optional. */
  endFlush?(): PortWrite;

  /**
   * The status log from `position` on (from the start when undefined), in the order written,
   * parsed and upgraded; unreadable records are left out with a warning each. Exact duplicates
   * (a record written twice around a concurrent prune) are returned once.
   */
  readStatus(position?: TPosition): Promise<StatusRead<TPosition>>;
  /** A task's journal entries as stored, in order, parsed; damage is reported as warnings. */
  readJournal(taskId: string): Promise<{ entries: StoredLine<JournalEntry>[]; warnings: StoreWarning[] }>;
  /** Undefined when absent; throws a `PersistenceError` naming where when unreadable. */
  readSnapshot(taskId: string): Promise<TaskSnapshotDocument | undefined>;
  /** Undefined when absent; throws a `PersistenceError` naming where when unreadable. */
  readResult(taskId: string): Promise<TaskResultDocument | undefined>;
  /** Removes the tasks' status records and documents (they are finished). */
  remove(taskIds: ReadonlySet<string>): Promise<void>;
  /** Where a task's document lives (a file path), for messages. Optional. */
  locate?(taskId: string, kind: 'snapshot' | 'journal' | 'result'): string;
  /** A persistent summary index, when the storage keeps one. Optional. */
  readonly history?: TaskHistoryIndex;
}

/**
 * The narrow storage port a backend implements; `createTaskStore` turns it into a `TaskStore`
 * and adds everything else once: buffering and flushing, snapshot coalescing, retries, folding
 * status records, the task index, paging and cursors, prune's choice of tasks, journal order.
 *
 * A port writes either kind by kind ({@link WritesOneByOne}) or a whole flush at once
 * ({@link WritesInBatches}). Kind by kind, the writes of one flush arrive in this order: journals,
 * then snapshots and results, then status records, so that a stored snapshot never covers
 * journal entries that are not stored. A write either stores everything it was given or throws
 * (a `PersistenceError` naming where); the store keeps a failed write and tries it again at the
 * next flush.
 */
export type StoragePort<TPosition = unknown> = StorageReads<TPosition> & (WritesOneByOne | WritesInBatches);
