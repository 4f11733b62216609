import {
  type JournalEntry,
  PersistenceError,
  type StoreWarning,
  type TaskResultDocument,
  type TaskSnapshotDocument,
  type TaskStatusRecord,
  type TaskStore,
  ValidationError,
} from '@troupe/core';
import { createTaskStore, type PortStore } from '@troupe/core/store';
import { createStore } from 'idb-keyval';
import { closeConnection } from './idb-documents.js';
import { IndexedDbStorage } from './indexeddb-storage.js';
import { databaseName, OBJECT_STORE } from './store-keys.js';
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
  /** Flushes, then releases the writer lock and closes the database; writes are refused after it. */
  close(): Promise<void>;
}

/**
 * The IndexedDB store: core's store engine (`createTaskStore`) over {@link IndexedDbStorage},
 * plus what only a page has — the one-writer Web Lock, `pagehide`, closing the connection.
 */
class IndexedDbTaskStore implements IndexedDbStore {
  readonly name: string;
  private readonly database: string;
  private readonly engine: PortStore;
  private readonly storage: IndexedDbStorage;
  private lock: WriterLock | undefined;
  private closed = false;
  private readonly onPageHide = (): void => void this.engine.flushNow();

  constructor(options: IndexedDbStoreOptions) {
    this.name = options.name ?? 'default';
    if (typeof this.name !== 'string' || this.name === '') {
      throw new ValidationError(
        `IndexedDB store name must be a non-empty string; got ${String(this.name)}.`,
        ['name'],
      );
    }
    if (typeof (globalThis as { indexedDB?: unknown }).indexedDB === 'undefined') {
      throw new PersistenceError(
        'PERSISTENCE_FAILED',
        'IndexedDB is not available here (createIndexedDbStore needs a browser page or worker). In Node, use createFileStore from @troupe/node, or createMemoryStore from @troupe/core.',
      );
    }
    this.database = databaseName(this.name);
    this.storage = new IndexedDbStorage(createStore(this.database, OBJECT_STORE), this.database);
    try {
      this.engine = createTaskStore(this.storage, {
        ...(options.flushDelayMs === undefined ? {} : { flushDelayMs: options.flushDelayMs }),
        ...(options.snapshotDelayMs === undefined ? {} : { snapshotDelayMs: options.snapshotDelayMs }),
        ...(options.onError ? { onError: options.onError } : {}),
      });
    } catch (error) {
      // The engine names itself a task store; this one is the IndexedDB store.
      if (error instanceof RangeError)
        throw new RangeError(error.message.replace(/^Task store/, 'IndexedDB store'));
      throw error;
    }
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
    this.assertWritable(record?.taskId);
    this.engine.appendStatus(record);
  }

  appendJournal(taskId: string, entry: JournalEntry): void {
    this.assertWritable(taskId);
    this.engine.appendJournal(taskId, entry);
  }

  saveSnapshot(taskId: string, produce: () => TaskSnapshotDocument): void {
    this.assertWritable(taskId);
    this.engine.saveSnapshot(taskId, produce);
  }

  saveResult(document: TaskResultDocument): void {
    this.assertWritable(document?.result?.taskId);
    this.engine.saveResult(document);
  }

  flush = (): Promise<void> => this.engine.flush();
  loadTasks: TaskStore['loadTasks'] = () => this.engine.loadTasks();
  listTasks: TaskStore['listTasks'] = (query) => this.engine.listTasks(query);
  getTask: TaskStore['getTask'] = (taskId) => this.engine.getTask(taskId);
  loadJournal: TaskStore['loadJournal'] = (taskId) => this.engine.loadJournal(taskId);
  loadSnapshot: TaskStore['loadSnapshot'] = (taskId) => this.engine.loadSnapshot(taskId);
  loadResult: TaskStore['loadResult'] = (taskId) => this.engine.loadResult(taskId);
  prune: NonNullable<TaskStore['prune']> = (options) => this.engine.prune!(options);

  locate(taskId: string, kind: 'snapshot' | 'journal'): string {
    return this.storage.locate(taskId, kind);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.engine.close();
    } finally {
      this.closed = true;
      globalThis.removeEventListener?.('pagehide', this.onPageHide);
      this.lock?.release();
      this.lock = undefined;
      await closeConnection(this.storage.use).catch(() => undefined);
    }
  }

  private assertWritable(taskId: unknown): asserts taskId is string {
    this.assertOpen();
    this.storage.checkTaskId(taskId);
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
