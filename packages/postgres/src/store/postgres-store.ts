import { randomInt } from 'node:crypto';
import { hostname } from 'node:os';
import { PersistenceError, type StoredTask, type StoreWarning, type TaskStore } from '@troupe/core';
import { createTaskStore } from '@troupe/core/store';
import type pg from 'pg';
import { checkUrl, connectionError, createPool, redactUrl } from './connect.js';
import { UNFINISHED_STATUS_LIST } from './final-statuses-sql.js';
import { readRows, type TaskQuery } from './postgres-history.js';
import { PostgresStorage } from './postgres-storage.js';
import { ensureSchema } from './schema.js';
import { ADVISORY_LOCKS_HERE, RUNNER_LOCKS, SessionLock } from './session-lock.js';

export type { TaskQuery } from './postgres-history.js';

/** Options of {@link openPostgresStore}. */
export interface PostgresStoreOptions {
  /** `postgres://user[:password]@host[:port]/database`. The database must exist. */
  url: string;
  /** Connections in the store's pool. Default 4. */
  poolSize?: number;
}

/**
 * A `TaskStore` on PostgreSQL: core's store engine (`createTaskStore`) over the Postgres storage
 * port, extended with what only a database server has — the restore lock and the runner locks
 * (session advisory locks), notifications sent with a flush, a cluster worker's fence. Writes are
 * buffered and sent in one statement (one round trip, one transaction) per flush (at the end of the
 * current turn of the event loop, or at `flush()`); a flush that fails is kept and tried again on
 * its own (100 ms, doubling to 2 s) until it lands. `listTasks` and `getTask` are indexed queries,
 * so they cost the same with a million stored tasks as with a hundred. Tables live in the `troupe`
 * schema, created and migrated by {@link openPostgresStore}.
 */
export interface PostgresTaskStore extends TaskStore {
  /** The store's connection pool (the cluster's claims, cancellations and notifications use it). */
  readonly pool: pg.Pool;
  /**
   * `TaskStore.lockForRestore`: makes this store's runtime the one that resumes the database's
   * unfinished tasks, until `close()`. The lock is a session-level advisory lock on a connection
   * of its own, so it goes with that connection: a runtime that died holds nothing. Rejects with
   * `PERSISTENCE_LOCKED` naming the holder (its process and host, from its session's
   * `application_name`) while another runtime holds it; calling it again while holding it keeps it.
   * A cluster worker's store (fenced) takes no lock and reports no task as run elsewhere: there, a
   * task's claim says which worker resumes it (its runtime restores only what it claimed).
   */
  lockForRestore(): Promise<{ warnings: StoreWarning[]; runElsewhere: string[] }>;
  /**
   * `TaskStore.tasksRunElsewhere`: which of `taskIds` another live runtime still runs (their
   * last status record's writer still has its store open). One indexed query.
   */
  tasksRunElsewhere(taskIds: readonly string[]): Promise<string[]>;
  /**
   * Removes finished tasks that ended before `olderThan` (ms since the epoch), with every row they
   * have, in one transaction; returns how many.
   */
  prune(options: { olderThan: number }): Promise<number>;
  /** Tasks newest first, filtered, one page at a time (an index range scan), with their specs. */
  query(query?: TaskQuery): Promise<{ tasks: StoredTask[]; cursor?: string }>;
  /**
   * @internal Fences this store's writes as cluster worker `workerId`'s: a write for a task another
   * worker has claimed is dropped (in the transaction), and `onFenced` gets those tasks' ids before
   * the flush that dropped them resolves. With `writes`, every write and notification for a task
   * it refuses (one the worker gave up) is dropped before it is buffered.
   */
  fenceAs(
    workerId: string,
    onFenced: (taskIds: string[]) => void,
    writes?: (taskId: string) => boolean,
  ): void;
  /**
   * @internal Sends a notification with the next write batch, in the same statement: it is
   * delivered when the writes made before it are committed (never before), and dropped with
   * them if `taskId` is fenced. Kept and retried with the batch if the server is away.
   */
  notify(channel: string, taskId: string | undefined, payload: string): void;
  /** Flushes, releases the restore and runner locks, and ends the pool. */
  close(): Promise<void>;
}

/** The store over `pool` (schema ready); see {@link openPostgresStore}. */
function createPostgresStore(pool: pg.Pool, where: string, url: string): PostgresTaskStore {
  /** Whether this worker still writes for a task (see `fenceAs`); every task by default. */
  let writes: ((taskId: string) => boolean) | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let retryDelay = 0;
  let restoreLock: Promise<SessionLock> | undefined;
  /**
   * Who writes this store's status records (`owner` in each): a runner key, whose lock the store
   * holds from its first status record until it closes, so a restore elsewhere can tell that the
   * tasks it runs have a live runtime.
   */
  const owner = { runner: randomInt(1, 2 ** 31), pid: process.pid, host: hostname() };
  let runnerLock: Promise<SessionLock> | undefined;

  const holdRunnerLock = (): Promise<SessionLock> => {
    if (!runnerLock) {
      const holding = SessionLock.runner(url, where, owner.runner);
      runnerLock = holding;
      holding.catch(() => {
        if (runnerLock === holding) runnerLock = undefined;
      });
    }
    return runnerLock;
  };
  /** Tries the kept writes again (100 ms, doubling to 2 s), so they land once the server is back. */
  const retryLater = (): void => {
    if (closed || retry) return;
    retryDelay = Math.min(retryDelay ? retryDelay * 2 : 100, 2_000);
    retry = setTimeout(() => {
      retry = undefined;
      engine.flush().then(
        () => {
          retryDelay = 0;
        },
        () => {},
      );
    }, retryDelay);
  };
  const storage = new PostgresStorage(pool, where, owner, holdRunnerLock, retryLater);
  const engine = createTaskStore(storage, {
    soon: (callback) => {
      const immediate = setImmediate(callback);
      return () => clearImmediate(immediate);
    },
    // A flush is one transaction whatever it holds: snapshots go with the records.
    snapshotDelayMs: 0,
    writeFilter: (taskId) => writes?.(taskId) ?? true,
    // Once, after the last flush: what only a database server's store holds.
    onClose: async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      for (const lock of [restoreLock, runnerLock])
        await lock?.then((held) => held.release()).catch(() => {});
      restoreLock = undefined;
      runnerLock = undefined;
      await pool.end();
    },
  });

  /**
   * The unfinished tasks (of `taskIds`, or all) whose last status record was written by another
   * store that is still open (its runner lock is held): another live runtime runs them.
   */
  const ownedElsewhere = async (
    taskIds?: readonly string[],
  ): Promise<{ taskId: string; pid: string; host: string }[]> => {
    await engine.flush();
    const { rows } = await readRows(
      pool,
      where,
      `SELECT t.task_id, last.pid, last.host
       FROM troupe.tasks t
       CROSS JOIN LATERAL (
         SELECT CASE WHEN json_typeof(record->'owner'->'runner') = 'number'
                      AND (record->'owner'->>'runner') ~ '^[0-9]{1,10}$'
                     THEN (record->'owner'->>'runner')::bigint END AS runner,
                record->'owner'->>'pid' AS pid, record->'owner'->>'host' AS host
         FROM troupe.status_log s WHERE s.task_id = t.task_id ORDER BY s.id DESC LIMIT 1
       ) last
       WHERE t.status IN ${UNFINISHED_STATUS_LIST} AND last.runner <> $2
         AND ($3::text[] IS NULL OR t.task_id = ANY($3))
         AND EXISTS (
           SELECT 1 FROM pg_locks l
           WHERE ${ADVISORY_LOCKS_HERE} AND l.classid = $1::oid AND l.objid::text::bigint = last.runner
         )
       ORDER BY t.created_at, t.task_id`,
      [String(RUNNER_LOCKS), owner.runner, taskIds ?? null],
    );
    return rows.map((row) => ({ taskId: row.task_id, pid: row.pid, host: row.host }));
  };

  return {
    ...engine,
    pool,
    async lockForRestore() {
      if (closed) throw new PersistenceError('PERSISTENCE_FAILED', `The task store at ${where} is closed.`);
      if (storage.fence) return { warnings: [], runElsewhere: [] };
      if (!restoreLock) {
        const taking = SessionLock.restore(url, where);
        restoreLock = taking;
        // A refusal leaves nothing held: the next call tries again.
        taking.catch(() => {
          if (restoreLock === taking) restoreLock = undefined;
        });
      }
      await restoreLock;
      const owned = await ownedElsewhere();
      const warnings = owned.map(
        (task): StoreWarning => ({
          code: 'PERSISTENCE_TASK_OWNED',
          message: `Task ${task.taskId} is not resumed: process ${task.pid} on ${task.host}, which runs it, still has the task store at ${where} open.`,
        }),
      );
      return { warnings, runElsewhere: owned.map((task) => task.taskId) };
    },
    async tasksRunElsewhere(taskIds) {
      return (await ownedElsewhere(taskIds)).map((task) => task.taskId);
    },
    async query(query = {}) {
      await engine.flushNow();
      return storage.history.query(query);
    },
    notify(channel, taskId, payload) {
      engine.notify(taskId === undefined ? { channel, payload } : { channel, taskId, payload });
    },
    fenceAs(workerId, onFenced, filter) {
      storage.fence = { workerId, onFenced };
      writes = filter;
    },
  };
}

/**
 * Connects to Postgres, creates or migrates the `troupe` schema, and returns the store. Throws a
 * `PersistenceError` naming the problem (bad connection string, unreachable server, missing
 * database, a schema written by a newer version), having written nothing.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresTaskStore> {
  const url = checkUrl(options.url);
  const pool = createPool(url, options.poolSize ?? 4);
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    await pool.end().catch(() => {});
    throw connectionError(url, error);
  }
  try {
    await ensureSchema(client, redactUrl(url));
  } catch (error) {
    client.release();
    await pool.end().catch(() => {});
    throw error;
  }
  client.release();
  return createPostgresStore(pool, redactUrl(url), url);
}
