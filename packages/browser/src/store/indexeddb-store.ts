import { PersistenceError, type StoreWarning, type TaskStore, ValidationError } from '@troupe/core';
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
  /** Removes finished tasks that ended before `olderThan` (ms since the epoch), with their documents; returns how many. */
  prune(options: { olderThan: number }): Promise<number>;
  /** Flushes, then releases the writer lock and closes the database; writes are refused after it. */
  close(): Promise<void>;
}

/**
 * The IndexedDB store: core's store engine (`createTaskStore`) over {@link IndexedDbStorage},
 * extended with what only a page has — the one-writer Web Lock, `pagehide`, closing the connection.
 */
function createIndexedDbTaskStore(options: IndexedDbStoreOptions): IndexedDbStore {
  const name = options.name ?? 'default';
  if (typeof name !== 'string' || name === '') {
    throw new ValidationError(`IndexedDB store name must be a non-empty string; got ${String(name)}.`, [
      'name',
    ]);
  }
  if (typeof (globalThis as { indexedDB?: unknown }).indexedDB === 'undefined') {
    throw new PersistenceError(
      'PERSISTENCE_FAILED',
      'IndexedDB is not available here (createIndexedDbStore needs a browser page or worker). In Node, use createFileStore from @troupe/node, or createMemoryStore from @troupe/core.',
    );
  }
  const database = databaseName(name);
  const storage = new IndexedDbStorage(createStore(database, OBJECT_STORE), database);
  let lock: WriterLock | undefined;
  let closed = false;
  const assertOpen = (): void => {
    if (closed) {
      throw new PersistenceError('PERSISTENCE_FAILED', `The IndexedDB task store "${name}" is closed.`, {
        path: `indexeddb:${database}`,
      });
    }
  };
  let engine: PortStore;
  try {
    engine = createTaskStore(storage, {
      ...(options.flushDelayMs === undefined ? {} : { flushDelayMs: options.flushDelayMs }),
      ...(options.snapshotDelayMs === undefined ? {} : { snapshotDelayMs: options.snapshotDelayMs }),
      ...(options.onError ? { onError: options.onError } : {}),
      // What only a page holds, let go once, after the engine's last flush.
      onClose: async () => {
        closed = true;
        globalThis.removeEventListener?.('pagehide', onPageHide);
        lock?.release();
        lock = undefined;
        await closeConnection(storage.use).catch(() => undefined);
      },
      // Every write is checked before it is buffered: the store is open and claimed by this page.
      writeFilter: (taskId) => {
        assertOpen();
        if (!lock) {
          throw new PersistenceError(
            'PERSISTENCE_FAILED',
            `The IndexedDB task store "${name}" is not claimed by this page: await store.claim() before writing task ${taskId} (another tab may be its writer).`,
            { path: `indexeddb:${database}` },
          );
        }
        return true;
      },
    });
  } catch (error) {
    // The engine names itself a task store; this one is the IndexedDB store.
    if (error instanceof RangeError)
      throw new RangeError(error.message.replace(/^Task store/, 'IndexedDB store'));
    throw error;
  }
  const onPageHide = (): void => void engine.flushNow();
  if ((options.flushOnPageHide ?? true) && typeof globalThis.addEventListener === 'function') {
    globalThis.addEventListener('pagehide', onPageHide);
  }
  const claim = async (claimOptions: { wait?: boolean; signal?: AbortSignal } = {}): Promise<boolean> => {
    assertOpen();
    if (lock) return true;
    lock = await acquireWriterLock(database, {
      wait: claimOptions.wait ?? true,
      ...(claimOptions.signal ? { signal: claimOptions.signal } : {}),
    });
    return lock !== undefined;
  };

  return {
    ...engine,
    name,
    get claimed() {
      return lock !== undefined;
    },
    claim,
    async lockForRestore() {
      if (await claim({ wait: false })) return { warnings: [] };
      const holder = (await describeWriterLockHolder(database)) ?? 'another tab or worker';
      throw new PersistenceError(
        'PERSISTENCE_LOCKED',
        `The IndexedDB task store "${name}" (database "${database}") is held by ${holder} of this origin: its unfinished tasks belong to the runtime there. Close that tab, or await store.claim() to wait for it, before restoring here.`,
        { path: database, details: { holder } },
      );
    },
    locate: (taskId, kind) => storage.locate(taskId, kind),
  };
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
  return createIndexedDbTaskStore(options);
}
