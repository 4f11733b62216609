import {
  PersistenceError,
  type StoredTask,
  type StoreWarning,
  type TaskPage,
  type TaskQuery,
  type TaskResult,
  type TaskStatus,
  type TaskSummary,
} from '@troupe/core';
import {
  checkQuery,
  decodeCursor,
  encodeCursor,
  parseStatusRecord,
  parseTaskSummary,
  TASK_FACT_KEYS,
  type TaskHistoryIndex,
} from '@troupe/core/store';
import type pg from 'pg';
import { FINAL_STATUS_LIST } from './final-statuses-sql.js';

/** Filter of `PostgresTaskStore.query`: core's `TaskQuery` (status, agent, session, page size, cursor). */
export type { TaskQuery };

const TASK_COLUMNS = 'task_id, created_at, v, spec, status, updated_at, result';

/**
 * The columns of a page of summaries: the spec's facts only (`TASK_FACT_KEYS`, picked by the server
 * in one pass over the spec's text), not its prompt, system prompt or conversation, which a page
 * does not show and which can be large (a forked task's conversation).
 */
const SUMMARY_COLUMNS = `task_id, created_at, v, status, updated_at, result,
  CASE WHEN json_typeof(spec) = 'object' THEN (
    SELECT json_object_agg(key, value) FROM json_each(spec)
    WHERE key IN (${TASK_FACT_KEYS.map((key) => `'${key}'`).join(', ')})
  ) END AS facts`;

/**
 * A read; a failure to reach the server is a `PersistenceError` naming the store (`where`, its
 * redacted URL).
 */
export async function readRows(
  pool: pg.Pool,
  where: string,
  text: string,
  values?: unknown[],
): Promise<pg.QueryResult> {
  try {
    return await pool.query(text, values);
  } catch (error) {
    throw new PersistenceError(
      'PERSISTENCE_FAILED',
      `The task store at ${where} is unreachable or refused a read: ${(error as Error).message || (error as { code?: string }).code}`,
      { cause: error },
    );
  }
}

/**
 * The Postgres store's history: `troupe.tasks`, one row per task kept by `troupe.write_batch` in
 * the transaction of each flush, answers `listTasks`, `getTask`, `loadTasks` and prune's choice
 * with indexed queries, so they cost the same with a million stored tasks as with a hundred.
 */
export class PostgresHistory implements TaskHistoryIndex {
  constructor(
    private readonly pool: pg.Pool,
    private readonly where: string,
  ) {}

  /** A page of summaries, read without the specs' prompts, system prompts and conversations. */
  async list(query: TaskQuery): Promise<TaskPage> {
    const { rows, cursor } = await this.page(query, checkQuery(query), SUMMARY_COLUMNS);
    const tasks: TaskSummary[] = [];
    for (const row of rows) {
      const parsed = parseTaskSummary({
        v: row.v,
        taskId: row.task_id,
        status: row.status,
        updatedAt: Number(row.updated_at),
        facts: row.facts,
        ...(row.result === null || row.result === undefined ? {} : { result: row.result }),
      });
      if (parsed.ok) tasks.push(parsed.value);
    }
    return cursor === undefined ? { tasks } : { tasks, cursor };
  }

  async get(taskId: string): Promise<StoredTask | undefined> {
    const { rows } = await this.read(`SELECT ${TASK_COLUMNS} FROM troupe.tasks WHERE task_id = $1`, [taskId]);
    return rows[0] ? storedTask(rows[0], []) : undefined;
  }

  async all(): Promise<{ tasks: StoredTask[]; warnings: StoreWarning[] }> {
    const { rows } = await this.read(`SELECT ${TASK_COLUMNS} FROM troupe.tasks ORDER BY created_at, task_id`);
    const warnings: StoreWarning[] = [];
    const tasks: StoredTask[] = [];
    for (const row of rows) {
      const task = storedTask(row, warnings);
      if (task) tasks.push(task);
    }
    return { tasks, warnings };
  }

  async endedBefore(olderThan: number): Promise<string[]> {
    const { rows } = await this.read(
      `SELECT task_id FROM troupe.tasks WHERE status IN ${FINAL_STATUS_LIST} AND updated_at < $1`,
      [olderThan],
    );
    return rows.map((row) => row.task_id as string);
  }

  /**
   * Tasks newest first, filtered, one page at a time (an index range scan): at most `limit` (default
   * 100, at most 10,000: more than `listTasks` allows).
   */
  async query(query: TaskQuery = {}): Promise<{ tasks: StoredTask[]; cursor?: string }> {
    const limit = Math.max(1, Math.min(query.limit ?? 100, 10_000));
    const { rows, cursor } = await this.page(query, limit, TASK_COLUMNS);
    const tasks: StoredTask[] = [];
    for (const row of rows) {
      const task = storedTask(row, []);
      if (task) tasks.push(task);
    }
    return cursor === undefined ? { tasks } : { tasks, cursor };
  }

  /**
   * The rows (`columns`) of one page of `query`, newest first (an index range scan): at most
   * `limit`, and the cursor of the next page when older rows match.
   */
  private async page(
    query: TaskQuery,
    limit: number,
    columns: string,
  ): Promise<{ rows: Record<string, unknown>[]; cursor?: string }> {
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
    if (query.minDepth !== undefined) {
      values.push(query.minDepth);
      // A depth that is no number (a row written by hand) is passed over, not an error for the page.
      where.push(
        `(CASE WHEN json_typeof(spec->'depth') = 'number' THEN (spec->>'depth')::numeric END) >= $${values.length}`,
      );
    }
    if (query.cursor) {
      const { createdAt, taskId } = decodeCursor(query.cursor);
      values.push(createdAt, taskId);
      where.push(`(created_at, task_id) < ($${values.length - 1}, $${values.length})`);
    }
    values.push(limit + 1);
    const { rows } = await this.read(
      `SELECT ${columns} FROM troupe.tasks
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY created_at DESC, task_id DESC LIMIT $${values.length}`,
      values,
    );
    const last = rows[limit - 1];
    return rows.length > limit && last
      ? {
          rows: rows.slice(0, limit),
          cursor: encodeCursor({ createdAt: Number(last.created_at), taskId: last.task_id }),
        }
      : { rows };
  }

  private read(text: string, values?: unknown[]): Promise<pg.QueryResult> {
    return readRows(this.pool, this.where, text, values);
  }
}

/**
 * A task row as a `StoredTask`, its spec checked by the shared parser as the record that created
 * it (of the version `v` it was written with). Undefined, with a warning, when it cannot be read.
 */
function storedTask(row: Record<string, unknown>, warnings: StoreWarning[]): StoredTask | undefined {
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
