import { PersistenceError } from '../errors.js';
import { isFinalStatus } from '../persistence/statuses.js';
import { foldStatusRecords } from '../persistence/task-documents.js';
import { checkQuery, pageOfTasks } from '../persistence/task-pages.js';
import type {
  JournalEntry,
  StoredTask,
  StoreWarning,
  TaskPage,
  TaskQuery,
  TaskResult,
  TaskResultDocument,
  TaskSnapshotDocument,
  TaskStatusRecord,
  TaskStore,
} from '../persistence/types.js';
import { journalInOrder } from './journal-order.js';
import { PendingWrites } from './pending-writes.js';
import type { MaybePromise, PortNotice, StoragePort } from './storage-port.js';
import { TaskIndex } from './task-index.js';

/** Options of {@link createTaskStore}. */
export interface TaskStoreOptions {
  /**
   * `batched` (default): writes are buffered and handed to the port together shortly after (see
   * `flushDelayMs`), or at `flush()`. `sync`: every call writes through before it returns.
   */
  durability?: 'batched' | 'sync';
  /** Delay before buffered status records and journal entries are written, in ms; 0 (default) = soon. */
  flushDelayMs?: number;
  /**
   * Delay before buffered snapshots and results are written, in ms (default 100): snapshots saved
   * meanwhile coalesce, so only the latest is produced. 0 = with the status records.
   */
  snapshotDelayMs?: number;
  /** Runs `callback` soon (the next event-loop turn); default `setTimeout(callback, 0)`. */
  soon?: (callback: () => void) => () => void;
  /** Told when writes start waiting in the buffer (`true`) and when it was written (`false`). */
  onPending?: (pending: boolean) => void;
  /**
   * Told of every write that failed (kept, tried again at the next flush) or was refused, as it
   * happens — background writes included; `flush()` rejects with the first of them too.
   */
  onError?: (error: PersistenceError) => void;
  /**
   * Which tasks this store may still write for: every write for a task it refuses is dropped, as
   * is a notice about it (a cluster worker's tasks since claimed by another worker). Asked at each
   * write; default: every task. It may throw instead, to refuse the write with an error the
   * writing call throws (the IndexedDB store: a page that has not claimed the store).
   */
  writeFilter?: (taskId: string) => boolean;
  /**
   * Called once when the store closes, after its last flush (whether that succeeded or not), before
   * `close()` resolves — however many times `close()` is called, concurrently or not: releases what
   * the backend holds (locks, connections, listeners).
   */
  onClose?: () => MaybePromise<void>;
}

/** The `TaskStore` {@link createTaskStore} makes, with what a backend wrapping it needs. */
export interface PortStore extends TaskStore {
  /**
   * Removes finished tasks that ended before `olderThan` (ms since the epoch), with their
   * documents; returns how many. Throws a `RangeError` for a time that is not a number.
   */
  prune(options: { olderThan: number }): Promise<number>;
  /** Hands everything buffered to the port now; synchronous when the port is. Errors wait for `flush()`. */
  flushNow(): MaybePromise<void>;
  /**
   * Publishes `notice` with the next flush, once every write accepted before it is stored (see
   * `PortNotice`). Dropped when the store is closed or the write filter refuses its task.
   */
  notify(notice: PortNotice): void;
  /** The last status record of each task that never ended, from the status log as it is now. */
  unfinishedRecords(): Promise<ReadonlyMap<string, TaskStatusRecord>>;
  /** Flushes, then refuses further writes (and calls `onClose`, see {@link TaskStoreOptions}). */
  close(): Promise<void>;
}

type Timer = ReturnType<typeof setTimeout>;

class PortTaskStore implements PortStore {
  private readonly pending: PendingWrites;
  private readonly index: TaskIndex;
  private readonly durability: 'batched' | 'sync';
  private readonly flushDelayMs: number;
  private readonly snapshotDelayMs: number;
  private readonly soon: (callback: () => void) => () => void;
  private cancelLines: (() => void) | undefined;
  private documentsTimer: Timer | undefined;
  private inFlight: Promise<void> | undefined;
  private failure: PersistenceError | undefined;
  private closed = false;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly port: StoragePort,
    private readonly options: TaskStoreOptions,
  ) {
    this.pending = new PendingWrites(port);
    this.index = new TaskIndex(port);
    this.durability = options.durability ?? 'batched';
    if (this.durability !== 'batched' && this.durability !== 'sync') {
      throw new RangeError(
        `Task store durability must be 'batched' or 'sync'; got ${JSON.stringify(this.durability)}.`,
      );
    }
    this.flushDelayMs = options.flushDelayMs ?? 0;
    this.snapshotDelayMs = options.snapshotDelayMs ?? 100;
    for (const [name, value] of Object.entries({
      flushDelayMs: this.flushDelayMs,
      snapshotDelayMs: this.snapshotDelayMs,
    })) {
      if (!Number.isFinite(value) || value < 0) {
        throw new RangeError(`Task store option ${name} must be a number ≥ 0; got ${String(value)}.`);
      }
    }
    this.soon =
      options.soon ??
      ((callback) => {
        const timer = setTimeout(callback, 0);
        return () => clearTimeout(timer);
      });
  }

  appendStatus(record: TaskStatusRecord): void {
    if (!this.accept(record.taskId)) return;
    this.pending.addStatus(record);
    this.schedule(false);
  }

  appendJournal(taskId: string, entry: JournalEntry): void {
    if (!this.accept(taskId)) return;
    this.pending.addJournal(taskId, entry);
    this.schedule(false);
  }

  saveSnapshot(taskId: string, produce: () => TaskSnapshotDocument): void {
    if (!this.accept(taskId)) return;
    this.pending.addSnapshot(taskId, produce);
    this.schedule(true);
  }

  saveResult(document: TaskResultDocument): void {
    const taskId = this.accept(document.result?.taskId);
    if (taskId === undefined) return;
    this.pending.addResult(taskId, document);
    this.schedule(true);
  }

  notify(notice: PortNotice): void {
    if (this.closed) return;
    if (notice.taskId !== undefined && this.options.writeFilter?.(notice.taskId) === false) return;
    this.pending.addNotice(notice);
    this.schedule(false);
  }

  async flush(): Promise<void> {
    await this.flushNow();
    await this.inFlight;
    const failure = this.failure;
    this.failure = undefined;
    if (failure) throw failure;
  }

  async loadTasks(): Promise<{ tasks: StoredTask[]; warnings: StoreWarning[] }> {
    await this.flushNow();
    if (this.port.history?.all) return this.port.history.all();
    const { records, warnings } = await this.port.readStatus();
    return { tasks: [...foldStatusRecords(records).values()], warnings };
  }

  async listTasks(query: TaskQuery = {}): Promise<TaskPage> {
    checkQuery(query);
    await this.flushNow();
    if (this.port.history) return this.port.history.list(query);
    await this.index.refresh();
    return pageOfTasks(this.index.summaries(), query);
  }

  async getTask(taskId: string): Promise<StoredTask | undefined> {
    await this.flushNow();
    if (this.port.history) return this.port.history.get(taskId);
    await this.index.refresh();
    return this.index.get(taskId);
  }

  async loadJournal(taskId: string): Promise<{ entries: JournalEntry[]; warnings: StoreWarning[] }> {
    this.check(taskId);
    await this.flushNow();
    const { entries, warnings } = await this.port.readJournal(taskId);
    const path = this.port.locate?.(taskId, 'journal');
    return journalInOrder(entries, warnings, path ?? `The journal of task ${taskId}`, path);
  }

  async loadSnapshot(taskId: string): Promise<TaskSnapshotDocument | undefined> {
    this.check(taskId);
    await this.flushNow();
    const document = await this.port.readSnapshot(taskId);
    if (document && document.taskId !== taskId)
      throw this.misplaced(taskId, 'snapshot', `the snapshot belongs to task ${document.taskId}`);
    return document;
  }

  async loadResult(taskId: string): Promise<TaskResult | undefined> {
    this.check(taskId);
    await this.flushNow();
    const document = await this.port.readResult(taskId);
    if (document && document.result.taskId !== taskId)
      throw this.misplaced(taskId, 'result', `the result belongs to task ${document.result.taskId}`);
    return document?.result;
  }

  async prune({ olderThan }: { olderThan: number }): Promise<number> {
    if (!Number.isFinite(olderThan)) {
      throw new RangeError(
        `prune({ olderThan }) needs a time in ms since the epoch; got ${String(olderThan)}.`,
      );
    }
    await this.flush();
    const removed = new Set<string>();
    if (this.port.history?.endedBefore)
      for (const taskId of await this.port.history.endedBefore(olderThan)) removed.add(taskId);
    else {
      await this.index.refresh();
      for (const summary of this.index.summaries())
        if (isFinalStatus(summary.status) && summary.updatedAt < olderThan) removed.add(summary.taskId);
    }
    await this.port.remove(removed);
    this.index.forget(removed);
    return removed.size;
  }

  async unfinishedRecords(): Promise<ReadonlyMap<string, TaskStatusRecord>> {
    await this.flushNow();
    await this.index.refresh();
    return this.index.lastRecordsOfUnfinished();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Calls while it closes wait for the same close: `onClose` runs once.
    this.closing ??= this.flush().finally(async () => {
      this.closed = true;
      await this.options.onClose?.();
    });
    await this.closing;
  }

  flushNow(): MaybePromise<void> {
    this.cancelLines?.();
    this.cancelLines = undefined;
    clearTimeout(this.documentsTimer);
    this.documentsTimer = undefined;
    this.options.onPending?.(false);
    return this.write(true);
  }

  /** The background write of lines (and of documents when they are not delayed). */
  private flushLines(): void {
    this.cancelLines = undefined;
    const done = this.write(this.snapshotDelayMs === 0);
    if (done === undefined && this.pending.empty) this.options.onPending?.(false);
  }

  /** One write at a time: a write asked for while one is in flight runs after it. */
  private write(documents: boolean): MaybePromise<void> {
    const run = () => this.pending.write(documents, (error) => this.keep(error));
    if (this.inFlight) return this.track(this.inFlight.then(run));
    const done = run();
    return done === undefined ? undefined : this.track(done);
  }

  private track(done: Promise<void>): Promise<void> {
    const tracked = done.catch((error: unknown) => this.keep(error as PersistenceError));
    this.inFlight = tracked;
    void tracked.then(() => {
      if (this.inFlight === tracked) this.inFlight = undefined;
    });
    return tracked;
  }

  private keep(error: PersistenceError): void {
    this.failure ??= error;
    try {
      this.options.onError?.(error);
    } catch {
      // A listener that throws must not break the store's writes.
    }
  }

  private schedule(documents: boolean): void {
    if (this.durability === 'sync') {
      void this.flushNow();
      return;
    }
    this.options.onPending?.(true);
    if (documents && this.snapshotDelayMs > 0) {
      if (this.documentsTimer === undefined) {
        const timer = setTimeout(() => void this.flushNow(), this.snapshotDelayMs);
        // Unreferenced where timers can be: a process otherwise done exits; its exit hook writes them.
        (timer as { unref?: () => void }).unref?.();
        this.documentsTimer = timer;
      }
      return;
    }
    if (this.cancelLines) return;
    if (this.flushDelayMs > 0) {
      const timer = setTimeout(() => this.flushLines(), this.flushDelayMs);
      this.cancelLines = () => clearTimeout(timer);
    } else this.cancelLines = this.soon(() => this.flushLines());
  }

  /** The task id of a write, checked; undefined when the write filter drops the write. */
  private accept(taskId: unknown): string | undefined {
    if (this.closed) {
      throw new PersistenceError(
        'PERSISTENCE_FAILED',
        `The task store at "${this.port.location}" is closed; writes are refused.`,
        { path: this.port.location },
      );
    }
    const checked = this.check(taskId);
    return this.options.writeFilter?.(checked) === false ? undefined : checked;
  }

  private check(taskId: unknown): string {
    return this.port.checkTaskId ? this.port.checkTaskId(taskId) : (taskId as string);
  }

  private misplaced(taskId: string, kind: 'snapshot' | 'result', problem: string): PersistenceError {
    const path = this.port.locate?.(taskId, kind);
    const where = path ?? `The ${kind} of task ${taskId}`;
    return new PersistenceError(
      'PERSISTENCE_CORRUPT',
      `${where}: ${problem}, not ${taskId}.`,
      path === undefined ? {} : { path },
    );
  }
}

/**
 * Turns a {@link StoragePort} into the runtime's `TaskStore`: the one place where writes are
 * buffered and flushed (in the port's order, failed ones kept and tried again), snapshots are
 * coalesced (only the latest per task is produced), status records are folded into tasks and
 * summaries, the index is kept up to date incrementally, pages and cursors are computed, a
 * journal is read in order and prune picks its tasks. Reads see the store's own buffered writes.
 * Throws a `RangeError` for invalid options.
 */
export function createTaskStore(port: StoragePort, options: TaskStoreOptions = {}): PortStore {
  const store = new PortTaskStore(port, options);
  // A plain object of own functions, as stores have always been: callers spread and wrap them.
  return {
    appendStatus: (record) => store.appendStatus(record),
    appendJournal: (taskId, entry) => store.appendJournal(taskId, entry),
    saveSnapshot: (taskId, produce) => store.saveSnapshot(taskId, produce),
    saveResult: (document) => store.saveResult(document),
    flush: () => store.flush(),
    loadTasks: () => store.loadTasks(),
    listTasks: (query) => store.listTasks(query),
    getTask: (taskId) => store.getTask(taskId),
    loadJournal: (taskId) => store.loadJournal(taskId),
    loadSnapshot: (taskId) => store.loadSnapshot(taskId),
    loadResult: (taskId) => store.loadResult(taskId),
    prune: (options) => store.prune(options),
    flushNow: () => store.flushNow(),
    notify: (notice) => store.notify(notice),
    unfinishedRecords: () => store.unfinishedRecords(),
    close: () => store.close(),
  };
}
