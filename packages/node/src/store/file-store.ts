import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { PersistenceError, type StoreWarning, type TaskStore } from '@troupe/core';
import { createTaskStore, type PortStore, type TaskStoreOptions } from '@troupe/core/store';
import { FileStorage } from './file-storage.js';
import { takeRestoreLock } from './restore-lock.js';
import { SilenceWatch } from './silence-watch.js';
import { storePaths } from './task-file-names.js';
import { describeOwner, ownerOf, StoreRunner, type TaskOwner } from './task-owner.js';

/** Options of {@link createFileStore}. */
export interface FileStoreOptions {
  /** Directory of the store (created on first write). Default `~/.troupe/tasks`. */
  dir?: string;
  /**
   * `batched` (default): writes are buffered and written together shortly after (see
   * `flushDelayMs`), or at `flush()`. `sync`: every call writes through before it returns.
   */
  durability?: 'batched' | 'sync';
  /**
   * Delay before buffered status and journal lines are written, in ms; 0 (default) = the next
   * event-loop turn.
   */
  flushDelayMs?: number;
  /**
   * Delay before buffered snapshots and results are written, in ms (default 100): snapshots saved
   * meanwhile coalesce, so a task that runs many turns a second writes a few documents, not one per
   * turn. The journal, written with the lines, holds every step in between. 0 = with the lines.
   */
  snapshotDelayMs?: number;
  /** fsync files (and the directory after renames) so that writes survive a power loss. Default false. */
  fsync?: boolean;
  /** How long finished tasks are kept by `pruneExpired()` and argument-less `prune()`, in ms. Default 7 days. */
  retentionMs?: number;
  /** Age after which a prune lock left by another process is taken over, in ms. Default 60,000. */
  lockStaleMs?: number;
  /** The clock retention is measured with. Default `Date.now`. */
  now?: () => number;
  /**
   * How often an open store rewrites its runner file and its restore lock, in ms, so that
   * runtimes on other hosts sharing the directory can tell it is alive. Default 2,000.
   */
  heartbeatMs?: number;
  /**
   * A runtime on another host whose runner file (or restore lock) has not changed for this long,
   * as seen from here, is taken for gone: its unfinished tasks are resumed here (through the
   * runtime's owner check) and its restore lock taken over. In ms; at least 2 × `heartbeatMs`.
   * Default 30,000. On this host a process's pid and start time decide at once.
   */
  hostDeadAfterMs?: number;
}

/** A {@link TaskStore} over a directory of files; see {@link createFileStore}. */
export interface FileStore extends TaskStore {
  /** The store directory, absolute. */
  readonly dir: string;
  /** Removes finished tasks that ended before `olderThan` (default: now − `retentionMs`). */
  prune(options?: { olderThan?: number }): Promise<number>;
  /** Removes finished tasks older than the retention period. */
  pruneExpired(): Promise<number>;
  /**
   * Takes `restore.lock` in the directory for this process until `close()` (or exit): a second
   * runtime's `restore()` on the directory is refused with `PERSISTENCE_LOCKED` naming this
   * process. A lock left by a dead process on this host is taken over, with a warning.
   */
  lockForRestore(): Promise<{ warnings: StoreWarning[] }>;
  /**
   * Which of `taskIds` another live runtime still runs (see `TaskStore.tasksRunElsewhere`), from
   * the store's index of the status log: costs the lines appended since the last read.
   */
  tasksRunElsewhere(taskIds: readonly string[]): Promise<string[]>;
  /** Flushes, then gives up `restore.lock` and this process's claim on its tasks. */
  close(): Promise<void>;
}

/** Seven days, in ms. */
export const DEFAULT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** Stores with writes not yet on disk, flushed if the process exits first. */
const unflushed = new Set<PortStore>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const store of unflushed) void store.flushNow();
  });
}

function createFileTaskStore(options: FileStoreOptions): FileStore {
  const dir = resolve(options.dir ?? join(homedir(), '.troupe', 'tasks'));
  const paths = storePaths(dir);
  const retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
  if (!Number.isFinite(retentionMs) || retentionMs < 0) {
    throw new RangeError(`File store option retentionMs must be a number ≥ 0; got ${String(retentionMs)}.`);
  }
  const now = options.now ?? Date.now;
  const heartbeatMs = options.heartbeatMs ?? 2_000;
  const deadAfterMs = options.hostDeadAfterMs ?? 30_000;
  if (!Number.isFinite(heartbeatMs) || heartbeatMs <= 0) {
    throw new RangeError(
      `File store option heartbeatMs must be a number of ms > 0; got ${String(heartbeatMs)}.`,
    );
  }
  if (!Number.isFinite(deadAfterMs) || deadAfterMs < 2 * heartbeatMs) {
    throw new RangeError(
      `File store option hostDeadAfterMs must be at least 2 × heartbeatMs (${2 * heartbeatMs}); got ${String(deadAfterMs)}.`,
    );
  }
  const heartbeat = { heartbeatMs, deadAfterMs, watch: new SilenceWatch() };
  /** Who this store's status records say runs their tasks (until `close()`). */
  const runner = new StoreRunner(dir, heartbeat);
  const storage = new FileStorage(paths, runner, {
    fsync: options.fsync ?? false,
    lockStaleMs: options.lockStaleMs ?? 60_000,
  });
  let engine: PortStore;
  const engineOptions: TaskStoreOptions = {
    soon: (callback) => {
      const immediate = setImmediate(callback);
      return () => clearImmediate(immediate);
    },
    onPending: (pending) => {
      if (!pending) unflushed.delete(engine);
      else {
        unflushed.add(engine);
        installExitHook();
      }
    },
  };
  if (options.durability !== undefined) engineOptions.durability = options.durability;
  if (options.flushDelayMs !== undefined) engineOptions.flushDelayMs = options.flushDelayMs;
  if (options.snapshotDelayMs !== undefined) engineOptions.snapshotDelayMs = options.snapshotDelayMs;
  try {
    engine = createTaskStore(storage, engineOptions);
  } catch (error) {
    // The engine names itself a task store; this one is the file store.
    if (error instanceof RangeError) throw new RangeError(error.message.replace(/^Task store/, 'File store'));
    throw error;
  }
  /** The restore lock once asked for (one request however many `lockForRestore` calls overlap). */
  let restoreLock: Promise<{ release(): void; warnings: StoreWarning[] }> | undefined;
  let closed = false;

  const unfinishedElsewhere = async (): Promise<Map<string, TaskOwner>> => {
    const elsewhere = new Map<string, TaskOwner>();
    for (const [taskId, record] of await engine.unfinishedRecords()) {
      const owner = ownerOf(record);
      if (owner && runner.runsElsewhere(owner)) elsewhere.set(taskId, owner);
    }
    return elsewhere;
  };

  return {
    ...engine,
    dir,
    locate: (taskId, kind) => storage.locate(taskId, kind),
    prune(pruneOptions = {}) {
      return engine.prune({ olderThan: pruneOptions.olderThan ?? now() - retentionMs });
    },
    pruneExpired() {
      return engine.prune({ olderThan: now() - retentionMs });
    },
    async lockForRestore() {
      if (closed) {
        throw new PersistenceError(
          'PERSISTENCE_FAILED',
          `The task store at "${dir}" is closed; writes are refused.`,
          {
            path: dir,
          },
        );
      }
      let warnings: StoreWarning[] = [];
      if (!restoreLock) {
        const taking = takeRestoreLock(paths, heartbeat);
        restoreLock = taking;
        taking.catch(() => {
          if (restoreLock === taking) restoreLock = undefined;
        });
        warnings = (await taking).warnings;
      } else await restoreLock;
      const elsewhere = await unfinishedElsewhere();
      for (const [taskId, owner] of elsewhere)
        warnings.push({
          code: 'PERSISTENCE_TASK_OWNED',
          message: `Task ${taskId} is not resumed: ${describeOwner(owner)}, which runs it, is still running (${paths.tasks}).`,
          path: paths.tasks,
        });
      return { warnings, runElsewhere: [...elsewhere.keys()] };
    },
    async tasksRunElsewhere(taskIds) {
      const records = await engine.unfinishedRecords();
      return taskIds.filter((taskId) => {
        const owner = ownerOf(records.get(taskId));
        return owner !== undefined && runner.runsElsewhere(owner);
      });
    },
    async close() {
      if (closed) return;
      await engine.close().finally(async () => {
        closed = true;
        await storage.history.settle();
        runner.release();
        const lock = restoreLock;
        restoreLock = undefined;
        (await lock?.catch(() => undefined))?.release();
      });
    },
  };
}

/**
 * A durable {@link TaskStore} over a directory: `tasks.jsonl` (the append-only status log), and per
 * task `<taskId>.json` (result), `<taskId>.snapshot.json` (latest snapshot) and
 * `<taskId>.journal.jsonl` (journal). Writes are buffered and batched (only the latest snapshot
 * per task is produced and written), appended as whole lines, and documents are replaced
 * atomically. Several processes may share a directory; see the package README for the rules.
 * Throws a `RangeError` for invalid options; write calls throw a `ValidationError` for a task id
 * that cannot name a file.
 */
export function createFileStore(options: FileStoreOptions = {}): FileStore {
  return createFileTaskStore(options);
}
