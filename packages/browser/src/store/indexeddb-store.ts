import {
  type JournalEntry,
  PersistenceError,
  type StoredTask,
  type StoreWarning,
  type TaskPage,
  type TaskQuery,
  type TaskResult,
  type TaskResultDocument,
  type TaskSnapshotDocument,
  type TaskStatusRecord,
  type TaskStore,
  ValidationError,
} from '@troupe/core';
import { isFinalStatus, pageOfTasks, summaryOf } from '@troupe/core/store';
import { createStore, type UseStore } from 'idb-keyval';
import { closeConnection, deleteTasks, readStatusLog } from './idb-documents.js';
import { PendingWrites } from './pending-writes.js';
import {
  foldStatusLog,
  loadJournalEntries,
  loadResultDocument,
  loadSnapshotDocument,
} from './read-documents.js';
import { databaseName, OBJECT_STORE } from './store-keys.js';
import { writeBatch } from './write-batch.js';
import { acquireWriterLock, describeWriterLockHolder, type WriterLock } from './writer-lock.js';

/** Options of {@link createIndexedDbStore}. */
export interface IndexedDbStoreOptions {
  /**
   * The store's name: its database is `troupe-tasks:<name>`, used by nothing else. Give each
   * runtime of an origin its own name. Default `default`.
   */
  name?: string;
  /** Delay before buffered status records and journal entries are written, in ms. Default 0. */
  flushDelayMs?: number;
  /**
   * Delay before buffered snapshots and results are written, in ms (default 100): snapshots saved
   * meanwhile coalesce, and only the latest is serialised.
   */
  snapshotDelayMs?: number;
  /** Flush when the page is hidden or unloaded (`pagehide`). Default true where there is a page. */
  flushOnPageHide?: boolean;
  /**
   * Called with every failed background write (a full disk surfaces as `QuotaExceededError`):
   * the error names the tasks whose writes were kept in memory to be tried again. `flush()`
   * rejects with it too.
   */
  onError?: (error: PersistenceError) => void;
}

/** A {@link TaskStore} in IndexedDB; see {@link createIndexedDbStore}. */
export interface IndexedDbStore extends TaskStore {
  /** The store's name (its database is `troupe-tasks:<name>`). */
  readonly name: string;
  /**
   * Makes this page the store's one writer (a Web Lock, `troupe-tasks:<name>`), held until
   * `close()`. Writes are refused until then. With `wait: false` resolves false at once when another
   * tab holds it; otherwise waits for it (until `signal` aborts). Reads need no claim.
   */
  claim(options?: { wait?: boolean; signal?: AbortSignal }): Promise<boolean>;
  /** Whether this page holds the writer lock. */
  readonly claimed: boolean;
  /**
   * Claims the store without waiting (see `claim`), for `runtime.restore()`: rejects with a
   * `PersistenceError` (`PERSISTENCE_LOCKED`) naming the store and the holding client when another
   * tab or worker holds it, so two runtimes never both resume a task. A tab that closes or crashes
   * releases its lock, so there is no stale lock to take over.
   */
  lockForRestore(): Promise<{ warnings: StoreWarning[] }>;
  close(): Promise<void>;
}

class IndexedDbTaskStore implements IndexedDbStore {
  readonly name: string;
  private readonly database: string;
  private readonly use: UseStore;
  private readonly pending = new PendingWrites();
  private readonly flushDelayMs: number;
  private readonly snapshotDelayMs: number;
  private readonly onError: ((error: PersistenceError) => void) | undefined;
  private linesTimer: ReturnType<typeof setTimeout> | undefined;
  private documentsTimer: ReturnType<typeof setTimeout> | undefined;
  /** The write in progress; writes run one after another. */
  private writing: Promise<void> = Promise.resolve();
  private failure: PersistenceError | undefined;
  private lock: WriterLock | undefined;
  private closed = false;
  private readonly onPageHide = (): void => void this.write(true);

  constructor(options: IndexedDbStoreOptions) {
    this.name = options.name ?? 'default';
    if (typeof this.name !== 'string' || this.name === '') {
      throw new ValidationError(
        `IndexedDB store name must be a non-empty string; got ${String(this.name)}.`,
        ['name'],
      );
    }
    this.flushDelayMs = options.flushDelayMs ?? 0;
    this.snapshotDelayMs = options.snapshotDelayMs ?? 100;
    for (const [option, value] of Object.entries({
      flushDelayMs: this.flushDelayMs,
      snapshotDelayMs: this.snapshotDelayMs,
    })) {
      if (!Number.isFinite(value) || value < 0) {
        throw new RangeError(`IndexedDB store option ${option} must be a number ≥ 0; got ${String(value)}.`);
      }
    }
    this.onError = options.onError;
    if (typeof (globalThis as { indexedDB?: unknown }).indexedDB === 'undefined') {
      throw new PersistenceError(
        'PERSISTENCE_FAILED',
        'IndexedDB is not available here (createIndexedDbStore needs a browser page or worker). In Node, use createFileStore from @troupe/node, or createMemoryStore from @troupe/core.',
      );
    }
    this.database = databaseName(this.name);
    this.use = createStore(this.database, OBJECT_STORE);
    if ((options.flushOnPageHide ?? true) && typeof globalThis.addEventListener === 'function') {
      globalThis.addEventListener('pagehide', this.onPageHide);
    }
  }

  get claimed(): boolean {
    return this.lock !== undefined;
  }

  async claim(options: { wait?: boolean; signal?: AbortSignal } = {}): Promise<boolean> {
    this.assertOpen();
    if (this.lock) return true;
    const lockOptions = { wait: options.wait ?? true, ...(options.signal ? { signal: options.signal } : {}) };
    this.lock = await acquireWriterLock(this.database, lockOptions);
    return this.lock !== undefined;
  }

  async lockForRestore(): Promise<{ warnings: StoreWarning[] }> {
    if (await this.claim({ wait: false })) return { warnings: [] };
    const holder = (await describeWriterLockHolder(this.database)) ?? 'another tab or worker';
    throw new PersistenceError(
      'PERSISTENCE_LOCKED',
      `The IndexedDB task store "${this.name}" (database "${this.database}") is held by ${holder} of this origin: its unfinished tasks belong to the runtime there. Close that tab, or await store.claim() to wait for it, before restoring here.`,
      { path: this.database, details: { holder } },
    );
  }

  appendStatus(record: TaskStatusRecord): void {
    this.assertWritable(record.taskId);
    this.pending.status(record);
    this.schedule(false);
  }

  appendJournal(taskId: string, entry: JournalEntry): void {
    this.assertWritable(taskId);
    this.pending.journal(taskId, entry);
    this.schedule(false);
  }

  saveSnapshot(taskId: string, produce: () => TaskSnapshotDocument): void {
    this.assertWritable(taskId);
    this.pending.snapshot(taskId, produce);
    this.schedule(true);
  }

  saveResult(document: TaskResultDocument): void {
    const taskId = document?.result?.taskId;
    this.assertWritable(taskId);
    this.pending.result(taskId, document);
    this.schedule(true);
  }

  async flush(): Promise<void> {
    await this.write(true);
    const failure = this.failure;
    this.failure = undefined;
    if (failure) throw failure;
  }

  async loadTasks(): Promise<{ tasks: StoredTask[]; warnings: StoreWarning[] }> {
    await this.write(true);
    const { tasks, warnings } = foldStatusLog(await readStatusLog(this.use), this.database);
    return { tasks: [...tasks.values()], warnings };
  }

  async listTasks(query: TaskQuery = {}): Promise<TaskPage> {
    const { tasks } = await this.loadTasks();
    return pageOfTasks(tasks.map(summaryOf), query);
  }

  async getTask(taskId: string): Promise<StoredTask | undefined> {
    const { tasks } = await this.loadTasks();
    return tasks.find((task) => task.spec.taskId === taskId);
  }

  async loadJournal(taskId: string): Promise<{ entries: JournalEntry[]; warnings: StoreWarning[] }> {
    await this.write(true);
    return loadJournalEntries(this.use, taskId, this.locate(taskId, 'journal'));
  }

  async loadSnapshot(taskId: string): Promise<TaskSnapshotDocument | undefined> {
    await this.write(true);
    return loadSnapshotDocument(this.use, taskId, this.locate(taskId, 'snapshot'));
  }

  async loadResult(taskId: string): Promise<TaskResult | undefined> {
    await this.write(true);
    return loadResultDocument(this.use, taskId, `indexeddb:${this.database}/result/${taskId}`);
  }

  async prune(options: { olderThan: number }): Promise<number> {
    if (!Number.isFinite(options?.olderThan)) {
      throw new RangeError(
        `prune({ olderThan }) needs a time in ms since the epoch; got ${String(options?.olderThan)}.`,
      );
    }
    await this.write(true);
    const log = await readStatusLog(this.use);
    const { tasks, recordsOf } = foldStatusLog(log, this.database);
    const expired = [...tasks.values()]
      .filter((task) => isFinalStatus(task.status) && task.updatedAt < options.olderThan)
      .map((task) => task.spec.taskId);
    if (expired.length === 0) return 0;
    await deleteTasks(
      this.use,
      expired.flatMap((taskId) => recordsOf.get(taskId) ?? []),
      expired,
    );
    return expired.length;
  }

  locate(taskId: string, kind: 'snapshot' | 'journal'): string {
    return `indexeddb:${this.database}/${kind}/${taskId}`;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.flush();
    } finally {
      this.closed = true;
      globalThis.removeEventListener?.('pagehide', this.onPageHide);
      this.lock?.release();
      this.lock = undefined;
      await closeConnection(this.use).catch(() => undefined);
    }
  }

  /** Writes what is pending (documents too, with `documents`) after the write in progress. */
  private write(documents: boolean): Promise<void> {
    if (documents) {
      clearTimeout(this.documentsTimer);
      this.documentsTimer = undefined;
    }
    clearTimeout(this.linesTimer);
    this.linesTimer = undefined;
    this.writing = this.writing.then(async () => {
      if (this.pending.empty) return;
      const batch = this.pending.take(documents);
      const failed = await writeBatch(this.use, batch, this.database);
      if (!failed) return;
      if (failed.keep) this.pending.putBack(batch);
      this.failure ??= failed.error;
      this.onError?.(failed.error);
    });
    return this.writing;
  }

  private schedule(documents: boolean): void {
    if (documents && this.snapshotDelayMs > 0) {
      this.documentsTimer ??= setTimeout(() => void this.write(true), this.snapshotDelayMs);
      return;
    }
    this.linesTimer ??= setTimeout(() => void this.write(documents), this.flushDelayMs);
  }

  private assertWritable(taskId: unknown): asserts taskId is string {
    this.assertOpen();
    if (typeof taskId !== 'string' || taskId === '') {
      throw new ValidationError(`A task id must be a non-empty string; got ${JSON.stringify(taskId)}.`, [
        'taskId',
      ]);
    }
    if (!this.lock) {
      throw new PersistenceError(
        'PERSISTENCE_FAILED',
        `The IndexedDB task store "${this.name}" is not claimed by this page: await store.claim() before writing task ${taskId} (another tab may be its writer).`,
        { path: `indexeddb:${this.database}` },
      );
    }
  }

  private assertOpen(): void {
    if (this.closed) {
      throw new PersistenceError('PERSISTENCE_FAILED', `The IndexedDB task store "${this.name}" is closed.`, {
        path: `indexeddb:${this.database}`,
      });
    }
  }
}

/**
 * A durable {@link TaskStore} in IndexedDB (through idb-keyval), for troupe in a browser: the
 * file store's documents (status log, journal, snapshot, result), with its schemas and versions,
 * in a database of its own (`troupe-tasks:<name>`). Writes are buffered and written in one
 * transaction per batch; snapshots coalesce; everything pending is written on `pagehide`. A write
 * that fails (`QuotaExceededError`) loses nothing: it is kept and tried again, and reported to
 * `onError` and by `flush()`. Call `await store.claim()` before writing: one tab writes a store at
 * a time. Throws `RangeError` or `ValidationError` for bad options.
 */
export function createIndexedDbStore(options: IndexedDbStoreOptions = {}): IndexedDbStore {
  return new IndexedDbTaskStore(options);
}
