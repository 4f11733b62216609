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
 * With `workerId`, the batch is fenced (see {@link writeBatchWith}); returns the fenced task ids.
 */
export async function writeBatch(pool: pg.Pool, batch: WriteBatch, workerId?: string): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const fenced = await writeBatchWith(client, batch, workerId);
    await client.query('COMMIT');
    return fenced;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * {@link writeBatch} inside a transaction the caller owns. With `workerId` (a cluster worker's
 * writes), the batch's task rows are locked first (serialising with `claimTask`, which locks the
 * row to change its owner) and every write for a task claimed by another worker is dropped: a
 * worker taken for dead, whose tasks now run elsewhere, cannot overwrite them. Returns the ids
 * of the tasks whose writes were dropped.
 */
export async function writeBatchWith(
  client: pg.ClientBase,
  batch: WriteBatch,
  workerId?: string,
): Promise<string[]> {
  const fenced = workerId === undefined ? new Set<string>() : await fencedTasks(client, batch, workerId);
  const kept = fenced.size ? withoutTasks(batch, fenced) : batch;
  await writeDocuments(client, kept);
  return [...fenced];
}

/** The tasks of `batch` whose row names an owner other than `workerId` (their rows locked, in order). */
async function fencedTasks(client: pg.ClientBase, batch: WriteBatch, workerId: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const record of batch.statuses) ids.add(record.taskId);
  for (const item of batch.journal) ids.add(item.taskId);
  for (const item of batch.snapshots) ids.add(item.taskId);
  for (const document of batch.results) ids.add(document.result.taskId);
  if (!ids.size) return new Set();
  // The same lock an UPDATE of the row takes, in a fixed order: no upgrade, no lock-order deadlock.
  const { rows } = await client.query<{ task_id: string; worker_id: string | null }>(
    'SELECT task_id, worker_id FROM troupe.tasks WHERE task_id = ANY($1) ORDER BY task_id FOR NO KEY UPDATE',
    [[...ids]],
  );
  return new Set(
    rows.filter((row) => row.worker_id !== null && row.worker_id !== workerId).map((row) => row.task_id),
  );
}

function withoutTasks(batch: WriteBatch, fenced: ReadonlySet<string>): WriteBatch {
  return {
    statuses: batch.statuses.filter((record) => !fenced.has(record.taskId)),
    journal: batch.journal.filter((item) => !fenced.has(item.taskId)),
    snapshots: batch.snapshots.filter((item) => !fenced.has(item.taskId)),
    results: batch.results.filter((document) => !fenced.has(document.result.taskId)),
  };
}

async function writeDocuments(client: pg.ClientBase, batch: WriteBatch): Promise<void> {
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
 * logs the records. A task ends once: of its final records, only the one that ended it is logged
 * (none if it had already ended; the first of the batch if the batch holds several, as a batch
 * retried after an outage may).
 */
export async function writeStatuses(
  client: pg.ClientBase,
  records: readonly TaskStatusRecord[],
): Promise<void> {
  const created = records.filter((record) => record.spec);
  if (created.length)
    await client.query(
      `INSERT INTO troupe.tasks (task_id, created_at, session_key, agent, status, updated_at, spec, v)
       SELECT t, c, s, a, st, at, sp::json, v
       FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::int[])
         AS u(t, c, s, a, st, at, sp, v)
       ON CONFLICT (task_id) DO NOTHING`,
      [
        created.map((record) => record.taskId),
        created.map((record) => record.spec!.createdAt),
        created.map((record) => record.spec!.sessionKey),
        created.map((record) => record.spec!.agent),
        created.map((record) => record.status),
        created.map((record) => record.at),
        created.map((record) => JSON.stringify(record.spec)),
        created.map((record) => record.v),
      ],
    );
  const updates = new Map<string, StatusUpdate>();
  /** The final record each update applies, by task. */
  const finals = new Map<string, TaskStatusRecord>();
  for (const record of records) {
    if (record.spec) continue;
    const previous = updates.get(record.taskId);
    if (previous && FINAL_STATUSES.includes(previous.status)) continue;
    if (FINAL_STATUSES.includes(record.status)) finals.set(record.taskId, record);
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
  const logged = records.filter((record) =>
    FINAL_STATUSES.includes(record.status)
      ? ended.has(record.taskId) && finals.get(record.taskId) === record
      : true,
  );
  if (logged.length)
    await client.query(
      `INSERT INTO troupe.status_log (task_id, record)
       SELECT t, r::json FROM unnest($1::text[], $2::text[]) AS u(t, r)`,
      [logged.map((record) => record.taskId), logged.map((record) => JSON.stringify(record))],
    );
}
