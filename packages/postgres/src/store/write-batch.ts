import type { JournalEntry, TaskResultDocument, TaskSnapshotDocument, TaskStatusRecord } from '@troupe/core';
import type pg from 'pg';

/** Everything buffered since the last flush. */
export interface WriteBatch {
  statuses: TaskStatusRecord[];
  journal: { taskId: string; entry: JournalEntry }[];
  snapshots: { taskId: string; document: TaskSnapshotDocument }[];
  results: TaskResultDocument[];
}

const FINAL = "('completed', 'failed', 'cancelled')";
const FINAL_STATUSES: readonly string[] = ['completed', 'failed', 'cancelled'];

/** A task's latest status within one batch; a final status is never replaced. */
interface StatusUpdate {
  status: string;
  at: number;
  result: string | null;
}

/**
 * Writes one batch in one transaction: the status log, the task rows (created by the record with
 * a spec; later records move the status unless it is already final, so a task ends exactly once),
 * the journal (an entry already stored is kept), the latest snapshots and the results (first wins).
 */
export async function writeBatch(pool: pg.Pool, batch: WriteBatch): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await writeBatchWith(client, batch);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** {@link writeBatch} inside a transaction the caller owns. */
export async function writeBatchWith(client: pg.ClientBase, batch: WriteBatch): Promise<void> {
  if (batch.statuses.length) await writeStatuses(client, batch.statuses);
  if (batch.journal.length)
    await client.query(
      `INSERT INTO troupe.journal (task_id, seq, entry)
       SELECT t, s, e::json FROM unnest($1::text[], $2::int[], $3::text[]) AS u(t, s, e)
       ON CONFLICT (task_id, seq) DO NOTHING`,
      [
        batch.journal.map((item) => item.taskId),
        batch.journal.map((item) => item.entry.seq),
        batch.journal.map((item) => JSON.stringify(item.entry)),
      ],
    );
  if (batch.snapshots.length)
    await client.query(
      `INSERT INTO troupe.snapshots (task_id, document)
       SELECT t, d::json FROM unnest($1::text[], $2::text[]) AS u(t, d)
       ON CONFLICT (task_id) DO UPDATE SET document = EXCLUDED.document
       WHERE (troupe.snapshots.document->>'journalLength')::int <= (EXCLUDED.document->>'journalLength')::int`,
      [
        batch.snapshots.map((item) => item.taskId),
        batch.snapshots.map((item) => JSON.stringify(item.document)),
      ],
    );
  if (batch.results.length)
    await client.query(
      `INSERT INTO troupe.results (task_id, document)
       SELECT t, d::json FROM unnest($1::text[], $2::text[]) AS u(t, d)
       ON CONFLICT (task_id) DO NOTHING`,
      [batch.results.map((item) => item.result.taskId), batch.results.map((item) => JSON.stringify(item))],
    );
}

/**
 * Writes status records: creates task rows, moves their status (never past a final one), and
 * logs the records, except a final record of a task that had already ended (a task ends once).
 */
export async function writeStatuses(
  client: pg.ClientBase,
  records: readonly TaskStatusRecord[],
): Promise<void> {
  const created = records.filter((record) => record.spec);
  if (created.length)
    await client.query(
      `INSERT INTO troupe.tasks (task_id, created_at, session_key, agent, status, updated_at, spec)
       SELECT t, c, s, a, st, at, sp::json
       FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[])
         AS u(t, c, s, a, st, at, sp)
       ON CONFLICT (task_id) DO NOTHING`,
      [
        created.map((record) => record.taskId),
        created.map((record) => record.spec!.createdAt),
        created.map((record) => record.spec!.sessionKey),
        created.map((record) => record.spec!.agent),
        created.map((record) => record.status),
        created.map((record) => record.at),
        created.map((record) => JSON.stringify(record.spec)),
      ],
    );
  const updates = new Map<string, StatusUpdate>();
  for (const record of records) {
    if (record.spec) continue;
    const previous = updates.get(record.taskId);
    if (previous && FINAL_STATUSES.includes(previous.status)) continue;
    updates.set(record.taskId, {
      status: record.status,
      at: record.at,
      result: record.result ? JSON.stringify(record.result) : (previous?.result ?? null),
    });
  }
  const ended = new Set<string>();
  if (updates.size) {
    const ids = [...updates.keys()];
    const values = [...updates.values()];
    const { rows } = await client.query<{ task_id: string; status: string }>(
      `UPDATE troupe.tasks AS task
       SET status = u.st, updated_at = u.at, result = COALESCE(u.r::json, task.result)
       FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[]) AS u(t, st, at, r)
       WHERE task.task_id = u.t AND task.status NOT IN ${FINAL}
       RETURNING task.task_id, task.status`,
      [
        ids,
        values.map((value) => value.status),
        values.map((value) => value.at),
        values.map((value) => value.result),
      ],
    );
    for (const row of rows) if (FINAL_STATUSES.includes(row.status)) ended.add(row.task_id);
  }
  const logged = records.filter(
    (record) => !FINAL_STATUSES.includes(record.status) || ended.has(record.taskId),
  );
  if (logged.length)
    await client.query(
      `INSERT INTO troupe.status_log (task_id, record)
       SELECT t, r::json FROM unnest($1::text[], $2::text[]) AS u(t, r)`,
      [logged.map((record) => record.taskId), logged.map((record) => JSON.stringify(record))],
    );
}
