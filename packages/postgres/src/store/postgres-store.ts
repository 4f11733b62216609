import { randomInt } from 'node:crypto';
import { hostname } from 'node:os';
import {
  type JournalEntry,
  PersistenceError,
  type StoredTask,
  type StoreWarning,
  type TaskPage,
  type TaskResult,
  type TaskResultDocument,
  type TaskSnapshotDocument,
  type TaskStatusRecord,
  type TaskStore,
} from '@troupe/core';
import { createTaskStore, type PortStore } from '@troupe/core/store';
import type pg from 'pg';
import { checkUrl, connectionError, createPool, redactUrl } from './connect.js';
import { FINAL_STATUS_LIST } from './final-statuses-sql.js';
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
 * port, plus what only a database server has — the restore lock and the runner locks (session
 * advisory locks), notifications sent with a flush, a cluster worker's fence. Writes are buffered
 * and sent in one statement (one round trip, one transaction) per flush (at the end of the current
 * turn of the event loop, or at `flush()`); a flush that fails is kept and tried again on its own
 * (100 ms, doubling to 2 s) until it lands. `list` and `get` are indexed queries, so they cost the same with a
 * million stored tasks as with a hundred. Tables live in the `troupe` schema, created and migrated
 * by {@link openPostgresStore}.
 */
export class PostgresTaskStore implements TaskStore {
  readonly pool: pg.Pool;
  private readonly where: string;
  private readonly url: string;
  private readonly storage: PostgresStorage;
  private readonly engine: PortStore;
  /** Whether this worker still writes for a task (see {@link fenceAs}); every task by default. */
  private writes: ((taskId: string) => boolean) | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private retryDelay = 0;
  private restoreLock: Promise<SessionLock> | undefined;
  /**
   * Who writes this store's status records (`owner` in each): a runner key, whose lock the store
   * holds from its first status record until it closes, so a restore elsewhere can tell that the
   * tasks it runs have a live runtime.
   */
  private readonly owner = { runner: randomInt(1, 2 ** 31), pid: process.pid, host: hostname() };
  private runnerLock: Promise<SessionLock> | undefined;

  /** @internal Use {@link openPostgresStore}. */
  constructor(pool: pg.Pool, where: string, url: string) {
    this.pool = pool;
    this.where = where;
    this.url = url;
    this.storage = new PostgresStorage(
      pool,
      where,
      this.owner,
      () => this.holdRunnerLock(),
      () => this.retryLater(),
    );
    this.engine = createTaskStore(this.storage, {
      soon: (callback) => {
        const immediate = setImmediate(callback);
        return () => clearImmediate(immediate);
      },
      // A flush is one transaction whatever it holds: snapshots go with the records.
      snapshotDelayMs: 0,
      writeFilter: (taskId) => this.writes?.(taskId) ?? true,
    });
  }

  /**
   * `TaskStore.lockForRestore`: makes this store's runtime the one that resumes the database's
   * unfinished tasks, until `close()`. The lock is a session-level advisory lock on a connection
   * of its own, so it goes with that connection: a runtime that died holds nothing. Rejects with
   * `PERSISTENCE_LOCKED` naming the holder (its process and host, from its session's
   * `application_name`) while another runtime holds it; calling it again while holding it keeps it.
   * A cluster worker's store ({@link fenceAs}) takes no lock and reports no task as run elsewhere:
   * there, a task's claim says which worker resumes it (its runtime restores only what it claimed).
   */
  async lockForRestore(): Promise<{ warnings: StoreWarning[]; runElsewhere: string[] }> {
    if (this.closed)
      throw new PersistenceError('PERSISTENCE_FAILED', `The task store at ${this.where} is closed.`);
    if (this.storage.fence) return { warnings: [], runElsewhere: [] };
    if (!this.restoreLock) {
      const taking = SessionLock.restore(this.url, this.where);
      this.restoreLock = taking;
      // A refusal leaves nothing held: the next call tries again.
      taking.catch(() => {
        if (this.restoreLock === taking) this.restoreLock = undefined;
      });
    }
    await this.restoreLock;
    const owned = await this.ownedElsewhere();
    const warnings = owned.map(
      (task): StoreWarning => ({
        code: 'PERSISTENCE_TASK_OWNED',
        message: `Task ${task.taskId} is not resumed: process ${task.pid} on ${task.host}, which runs it, still has the task store at ${this.where} open.`,
      }),
    );
    return { warnings, runElsewhere: owned.map((task) => task.taskId) };
  }

  /**
   * `TaskStore.tasksRunElsewhere`: which of `taskIds` another live runtime still runs (their
   * last status record's writer still has its store open). One indexed query.
   */
  async tasksRunElsewhere(taskIds: readonly string[]): Promise<string[]> {
    return (await this.ownedElsewhere(taskIds)).map((task) => task.taskId);
  }

  /** Tries the kept writes again (100 ms, doubling to 2 s), so they land once the server is back. */
  private retryLater(): void {
    if (this.closed || this.retry) return;
    this.retryDelay = Math.min(this.retryDelay ? this.retryDelay * 2 : 100, 2_000);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.engine.flush().then(
        () => {
          this.retryDelay = 0;
        },
        () => {},
      );
    }, this.retryDelay);
  }

  private holdRunnerLock(): Promise<SessionLock> {
    if (!this.runnerLock) {
      const holding = SessionLock.runner(this.url, this.where, this.owner.runner);
      this.runnerLock = holding;
      holding.catch(() => {
        if (this.runnerLock === holding) this.runnerLock = undefined;
      });
    }
    return this.runnerLock;
  }

  /**
   * The unfinished tasks (of `taskIds`, or all) whose last status record was written by another
   * store that is still open (its runner lock is held): another live runtime runs them.
   */
  private async ownedElsewhere(
    taskIds?: readonly string[],
  ): Promise<{ taskId: string; pid: string; host: string }[]> {
    await this.flush();
    const { rows } = await readRows(
      this.pool,
      this.where,
      `SELECT t.task_id, last.pid, last.host
       FROM troupe.tasks t
       CROSS JOIN LATERAL (
         SELECT CASE WHEN json_typeof(record->'owner'->'runner') = 'number'
                      AND (record->'owner'->>'runner') ~ '^[0-9]{1,10}$'
                     THEN (record->'owner'->>'runner')::bigint END AS runner,
                record->'owner'->>'pid' AS pid, record->'owner'->>'host' AS host
         FROM troupe.status_log s WHERE s.task_id = t.task_id ORDER BY s.id DESC LIMIT 1
       ) last
       WHERE t.status NOT IN ${FINAL_STATUS_LIST} AND last.runner <> $2
         AND ($3::text[] IS NULL OR t.task_id = ANY($3))
         AND EXISTS (
           SELECT 1 FROM pg_locks l
           WHERE ${ADVISORY_LOCKS_HERE} AND l.classid = $1::oid AND l.objid::text::bigint = last.runner
         )
       ORDER BY t.created_at, t.task_id`,
      [String(RUNNER_LOCKS), this.owner.runner, taskIds ?? null],
    );
    return rows.map((row) => ({ taskId: row.task_id, pid: row.pid, host: row.host }));
  }

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
  ): void {
    this.storage.fence = { workerId, onFenced };
    this.writes = writes;
  }

  appendStatus(record: TaskStatusRecord): void {
    this.engine.appendStatus(record);
  }

  appendJournal(taskId: string, entry: JournalEntry): void {
    this.engine.appendJournal(taskId, entry);
  }

  saveSnapshot(taskId: string, produce: () => TaskSnapshotDocument): void {
    this.engine.saveSnapshot(taskId, produce);
  }

  saveResult(document: TaskResultDocument): void {
    this.engine.saveResult(document);
  }

  /**
   * @internal Sends a notification with the next write batch, in the same statement: it is
   * delivered when the writes made before it are committed (never before), and dropped with
   * them if `taskId` is fenced. Kept and retried with the batch if the server is away.
   */
  notify(channel: string, taskId: string | undefined, payload: string): void {
    this.engine.notify(taskId === undefined ? { channel, payload } : { channel, taskId, payload });
  }

  /** Resolves when everything written so far is committed; rejects with a PersistenceError if not. */
  flush(): Promise<void> {
    return this.engine.flush();
  }

  /** `TaskStore.loadTasks`: every task row, oldest first; unreadable rows are warnings. */
  loadTasks(): Promise<{ tasks: StoredTask[]; warnings: StoreWarning[] }> {
    return this.engine.loadTasks();
  }

  /** One task by id, or undefined (an indexed query). */
  get(taskId: string): Promise<StoredTask | undefined> {
    return this.engine.getTask(taskId);
  }

  /** `TaskStore.getTask`: see {@link PostgresTaskStore.get}. */
  getTask(taskId: string): Promise<StoredTask | undefined> {
    return this.engine.getTask(taskId);
  }

  /** `TaskStore.listTasks`: a page of {@link PostgresTaskStore.query}, as summaries. */
  listTasks(query: TaskQuery = {}): Promise<TaskPage> {
    return this.engine.listTasks(query);
  }

  /** Tasks newest first, filtered, one page at a time (an index range scan). */
  async query(query: TaskQuery = {}): Promise<{ tasks: StoredTask[]; cursor?: string }> {
    await this.engine.flushNow();
    return this.storage.history.query(query);
  }

  loadJournal(taskId: string): Promise<{ entries: JournalEntry[]; warnings: StoreWarning[] }> {
    return this.engine.loadJournal(taskId);
  }

  loadSnapshot(taskId: string): Promise<TaskSnapshotDocument | undefined> {
    return this.engine.loadSnapshot(taskId);
  }

  loadResult(taskId: string): Promise<TaskResult | undefined> {
    return this.engine.loadResult(taskId);
  }

  /** Removes finished tasks that ended before `olderThan`, with every row they have, in one transaction. */
  prune(options: { olderThan: number }): Promise<number> {
    return this.engine.prune(options);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.engine.close();
    } finally {
      this.closed = true;
      if (this.retry) clearTimeout(this.retry);
      for (const lock of [this.restoreLock, this.runnerLock])
        await lock?.then((held) => held.release()).catch(() => {});
      this.restoreLock = undefined;
      this.runnerLock = undefined;
      await this.pool.end();
    }
  }
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
  return new PostgresTaskStore(pool, redactUrl(url), url);
}
