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
  type TaskStatus,
  type TaskStatusRecord,
  type TaskStore,
} from '@troupe/core';
import {
  decodeCursor,
  encodeCursor,
  type Parsed,
  pageSize,
  parseJournalEntry,
  parseResultDocument,
  parseSnapshotDocument,
  parseStatusRecord,
  summaryOf,
} from '@troupe/core/store';
import type pg from 'pg';
import { checkUrl, connectionError, createPool, redactUrl } from './connect.js';
import { FINAL_STATUS_LIST } from './final-statuses-sql.js';
import { ensureSchema } from './schema.js';
import { ADVISORY_LOCKS_HERE, RUNNER_LOCKS, SessionLock } from './session-lock.js';
import { type BatchNotification, writeBatch } from './write-batch.js';

/** Options of {@link openPostgresStore}. */
export interface PostgresStoreOptions {
  /** `postgres://user[:password]@host[:port]/database`. The database must exist. */
  url: string;
  /** Connections in the store's pool. Default 4. */
  poolSize?: number;
}

/** Filter of {@link PostgresTaskStore.query}. */
export interface TaskQuery {
  status?: TaskStatus | readonly TaskStatus[];
  agent?: string;
  sessionKey?: string;
  /** At most this many, newest first. Default 100. */
  limit?: number;
  /** The `cursor` of a previous page. */
  cursor?: string;
}

/**
 * A `TaskStore` on PostgreSQL. Writes are buffered and sent in one statement (one round trip, one transaction) per flush (at the
 * end of the current turn of the event loop, or at `flush()`); `list` and `get` are indexed
 * queries, so they cost the same with a million stored tasks as with a hundred. Tables live in
 * the `troupe` schema, created and migrated by {@link openPostgresStore}.
 */
export class PostgresTaskStore implements TaskStore {
  readonly pool: pg.Pool;
  private readonly where: string;
  private statuses: TaskStatusRecord[] = [];
  private journal: { taskId: string; entry: JournalEntry }[] = [];
  private snapshots = new Map<string, () => TaskSnapshotDocument>();
  private results: TaskResultDocument[] = [];
  private notifications: BatchNotification[] = [];
  private scheduled = false;
  private retry: NodeJS.Timeout | undefined;
  private retryDelay = 0;
  private chain: Promise<void> = Promise.resolve();
  private failure: PersistenceError | undefined;
  private closed = false;
  private fence: { workerId: string; onFenced: (taskIds: string[]) => void } | undefined;
  private readonly url: string;
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
  }

  /**
   * `TaskStore.lockForRestore`: makes this store's runtime the one that resumes the database's
   * unfinished tasks, until `close()`. The lock is a session-level advisory lock on a connection
   * of its own, so it goes with that connection: a runtime that died holds nothing. Rejects with
   * `PERSISTENCE_LOCKED` naming the holder (its process and host, from its session's
   * `application_name`) while another runtime holds it; calling it again while holding it keeps it.
   */
  async lockForRestore(): Promise<{ warnings: StoreWarning[]; runElsewhere: string[] }> {
    if (this.closed)
      throw new PersistenceError('PERSISTENCE_FAILED', `The task store at ${this.where} is closed.`);
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
    const { rows } = await this.read(
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
   * worker has claimed is dropped, and `onFenced` gets those tasks' ids before the flush that
   * dropped them resolves.
   */
  fenceAs(workerId: string, onFenced: (taskIds: string[]) => void): void {
    this.fence = { workerId, onFenced };
  }

  appendStatus(record: TaskStatusRecord): void {
    this.statuses.push({ ...record, owner: this.owner } as TaskStatusRecord);
    this.schedule();
  }

  appendJournal(taskId: string, entry: JournalEntry): void {
    this.journal.push({ taskId, entry });
    this.schedule();
  }

  saveSnapshot(taskId: string, produce: () => TaskSnapshotDocument): void {
    this.snapshots.set(taskId, produce);
    this.schedule();
  }

  saveResult(document: TaskResultDocument): void {
    this.results.push(document);
    this.schedule();
  }

  /**
   * @internal Sends a notification with the next write batch, in the same statement: it is
   * delivered when the writes made before it are committed (never before), and dropped with
   * them if `taskId` is fenced. Kept and retried with the batch if the server is away.
   */
  notify(channel: string, taskId: string | undefined, payload: string): void {
    this.notifications.push({ channel, taskId, payload });
    this.schedule();
  }

  /** Resolves when everything written so far is committed; rejects with a PersistenceError if not. */
  flush(): Promise<void> {
    const next = this.chain.then(() => this.writePending());
    this.chain = next.catch(() => {});
    return next;
  }

  private schedule(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush().catch(() => {});
    });
  }

  private async writePending(): Promise<void> {
    const failure = this.failure;
    if (failure) {
      this.failure = undefined;
      throw failure;
    }
    if (
      !this.statuses.length &&
      !this.journal.length &&
      !this.snapshots.size &&
      !this.results.length &&
      !this.notifications.length
    )
      return;
    const batch = {
      statuses: this.statuses,
      journal: this.journal,
      snapshots: [...this.snapshots].map(([taskId, produce]) => ({ taskId, document: produce() })),
      results: this.results,
      notifications: this.notifications,
    };
    this.statuses = [];
    this.journal = [];
    this.snapshots = new Map();
    this.results = [];
    this.notifications = [];
    let fenced: string[];
    try {
      // Records name this store's runner: its lock is held before any of them lands.
      if (batch.statuses.length) await this.holdRunnerLock();
      fenced = await writeBatch(this.pool, batch, this.fence?.workerId);
      this.retryDelay = 0;
    } catch (error) {
      // Kept for the next attempt: nothing is dropped because the server was briefly away.
      this.statuses = batch.statuses.concat(this.statuses);
      this.journal = batch.journal.concat(this.journal);
      for (const { taskId, document } of batch.snapshots)
        if (!this.snapshots.has(taskId)) this.snapshots.set(taskId, () => document);
      this.results = batch.results.concat(this.results);
      this.notifications = batch.notifications.concat(this.notifications);
      this.retryLater();
      throw new PersistenceError(
        'PERSISTENCE_FAILED',
        `Could not write to the task store at ${this.where}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    if (fenced.length) this.fence?.onFenced(fenced);
  }

  /** Tries the kept writes again (100 ms, doubling to 2 s), so they land once the server is back. */
  private retryLater(): void {
    if (this.closed || this.retry) return;
    this.retryDelay = Math.min(this.retryDelay ? this.retryDelay * 2 : 100, 2_000);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.flush().catch(() => {});
    }, this.retryDelay);
  }

  /** A read; a failure to reach the server is a PersistenceError naming the store. */
  private async read(text: string, values?: unknown[]): Promise<pg.QueryResult> {
    try {
      return await this.pool.query(text, values);
    } catch (error) {
      throw new PersistenceError(
        'PERSISTENCE_FAILED',
        `The task store at ${this.where} is unreachable or refused a read: ${(error as Error).message || (error as { code?: string }).code}`,
        { cause: error },
      );
    }
  }

  async loadTasks(): Promise<{ tasks: StoredTask[]; warnings: StoreWarning[] }> {
    const { rows } = await this.read(
      'SELECT task_id, created_at, v, spec, status, updated_at, result FROM troupe.tasks ORDER BY created_at, task_id',
    );
    const warnings: StoreWarning[] = [];
    const tasks: StoredTask[] = [];
    for (const row of rows) {
      const task = this.storedTask(row, warnings);
      if (task) tasks.push(task);
    }
    return { tasks, warnings };
  }

  /** One task by id, or undefined. */
  async get(taskId: string): Promise<StoredTask | undefined> {
    const { rows } = await this.read(
      'SELECT task_id, created_at, v, spec, status, updated_at, result FROM troupe.tasks WHERE task_id = $1',
      [taskId],
    );
    return rows[0] ? this.storedTask(rows[0], []) : undefined;
  }

  /** `TaskStore.getTask`: see {@link PostgresTaskStore.get}. */
  getTask(taskId: string): Promise<StoredTask | undefined> {
    return this.get(taskId);
  }

  /** `TaskStore.listTasks`: a page of {@link PostgresTaskStore.query}, as summaries. */
  async listTasks(query: TaskQuery = {}): Promise<TaskPage> {
    const page = await this.query({ ...query, limit: pageSize(query) });
    const tasks = page.tasks.map(summaryOf);
    return page.cursor === undefined ? { tasks } : { tasks, cursor: page.cursor };
  }

  /** Tasks newest first, filtered, one page at a time (an index range scan). */
  async query(query: TaskQuery = {}): Promise<{ tasks: StoredTask[]; cursor?: string }> {
    const where: string[] = [];
    const values: unknown[] = [];
    const statuses =
      query.status === undefined ? [] : typeof query.status === 'string' ? [query.status] : query.status;
    if (statuses.length) {
      values.push(statuses);
      where.push(`status = ANY($${values.length})`);
    }
    if (query.agent !== undefined) {
      values.push(query.agent);
      where.push(`agent = $${values.length}`);
    }
    if (query.sessionKey !== undefined) {
      values.push(query.sessionKey);
      where.push(`session_key = $${values.length}`);
    }
    if (query.cursor) {
      const { createdAt, taskId } = decodeCursor(query.cursor);
      values.push(createdAt, taskId);
      where.push(`(created_at, task_id) < ($${values.length - 1}, $${values.length})`);
    }
    const limit = Math.max(1, Math.min(query.limit ?? 100, 10_000));
    values.push(limit + 1);
    const { rows } = await this.read(
      `SELECT task_id, created_at, v, spec, status, updated_at, result FROM troupe.tasks
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY created_at DESC, task_id DESC LIMIT $${values.length}`,
      values,
    );
    const tasks: StoredTask[] = [];
    for (const row of rows.slice(0, limit)) {
      const task = this.storedTask(row, []);
      if (task) tasks.push(task);
    }
    const last = rows[limit - 1];
    return rows.length > limit && last
      ? { tasks, cursor: encodeCursor({ createdAt: Number(last.created_at), taskId: last.task_id }) }
      : { tasks };
  }

  async loadJournal(taskId: string): Promise<{ entries: JournalEntry[]; warnings: StoreWarning[] }> {
    const { rows } = await this.read(
      'SELECT seq, entry FROM troupe.journal WHERE task_id = $1 ORDER BY seq',
      [taskId],
    );
    const entries: JournalEntry[] = [];
    const warnings: StoreWarning[] = [];
    for (const row of rows) {
      const parsed = parseJournalEntry(row.entry);
      if (!parsed.ok) {
        // Entries after a damaged one would replay out of order: the journal ends here.
        warnings.push({
          code: parsed.code,
          message: `Task ${taskId}, journal entry ${row.seq}: ${parsed.message}.`,
        });
        break;
      }
      entries.push(parsed.value);
    }
    return { entries, warnings };
  }

  async loadSnapshot(taskId: string): Promise<TaskSnapshotDocument | undefined> {
    const { rows } = await this.read('SELECT document FROM troupe.snapshots WHERE task_id = $1', [taskId]);
    return rows[0] ? readable(parseSnapshotDocument(rows[0].document), taskId, 'snapshot') : undefined;
  }

  async loadResult(taskId: string): Promise<TaskResult | undefined> {
    const { rows } = await this.read('SELECT document FROM troupe.results WHERE task_id = $1', [taskId]);
    return rows[0] ? readable(parseResultDocument(rows[0].document), taskId, 'result').result : undefined;
  }

  async prune({ olderThan }: { olderThan: number }): Promise<number> {
    await this.flush();
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query(
        `DELETE FROM troupe.tasks WHERE status IN ${FINAL_STATUS_LIST} AND updated_at < $1
         RETURNING task_id`,
        [olderThan],
      );
      const ids = rows.map((row) => row.task_id as string);
      for (const table of ['status_log', 'journal', 'snapshots', 'results'])
        await client.query(`DELETE FROM troupe.${table} WHERE task_id = ANY($1)`, [ids]);
      await client.query('COMMIT');
      return ids.length;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.flush();
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

  /**
   * A task row as a `StoredTask`, its spec checked by the shared parser as the record that created
   * it (of the version `v` it was written with). Undefined, with a warning, when it cannot be read.
   */
  private storedTask(row: Record<string, unknown>, warnings: StoreWarning[]): StoredTask | undefined {
    // The row's status and result are checked too: a status that is none (`sideways`) would be
    // restored as running, a result that is not one would end the task in every view.
    const parsed = parseStatusRecord({
      v: row.v,
      taskId: row.task_id,
      event: 'task.queued',
      status: row.status,
      at: Number(row.created_at),
      spec: row.spec,
      ...(row.result === null || row.result === undefined ? {} : { result: row.result }),
    });
    if (!parsed.ok) {
      warnings.push({
        code: parsed.code,
        message: `Task ${String(row.task_id)}: its row in troupe.tasks (spec, status, result) cannot be read: ${parsed.message}.`,
      });
      return undefined;
    }
    const task: StoredTask = {
      spec: row.spec as StoredTask['spec'],
      status: row.status as TaskStatus,
      updatedAt: Number(row.updated_at),
    };
    if (row.result) task.result = row.result as TaskResult;
    return task;
  }
}

/** A parsed document, or a `PersistenceError` naming the task and the document. */
function readable<T>(parsed: Parsed<T>, taskId: string, what: string): T {
  if (parsed.ok) return parsed.value;
  throw new PersistenceError(parsed.code, `Task ${taskId}: its ${what} cannot be read: ${parsed.message}.`);
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
