import type { JournalEntry, TaskResultDocument, TaskSnapshotDocument, TaskStatusRecord } from '@troupe/core';
import { isFinalStatus } from '@troupe/core/store';
import type pg from 'pg';

/** Everything buffered since the last flush. */
export interface WriteBatch {
  statuses: TaskStatusRecord[];
  journal: { taskId: string; entry: JournalEntry }[];
  snapshots: { taskId: string; document: TaskSnapshotDocument }[];
  results: TaskResultDocument[];
  /** Notifications sent when the batch commits (those of a fenced task are dropped with its writes). */
  notifications?: BatchNotification[];
}

/** A `pg_notify` sent with a batch. */
export interface BatchNotification {
  channel: string;
  /** The task it is about, if any (fencing drops it with that task's writes). */
  taskId: string | undefined;
  payload: string;
}

/** A task's latest status within one batch; a final status is never replaced. */
interface StatusUpdate {
  status: string;
  at: number;
  result: string | null;
}

/**
 * Writes one batch in one statement (one round trip, atomic): the status log, the task rows
 * (created by the record with a spec; later records move the status unless it is already final,
 * so a task ends exactly once), the journal (an entry already stored is kept), the latest
 * snapshots, the results (first wins) and the notifications. With `workerId`, the batch is fenced
 * (see {@link writeBatchWith}); returns the fenced task ids.
 */
export function writeBatch(pool: pg.Pool, batch: WriteBatch, workerId?: string): Promise<string[]> {
  return writeBatchWith(pool, batch, workerId);
}

/**
 * {@link writeBatch} on a client (inside a transaction the caller owns, or not) or a pool. With
 * `workerId` (a cluster worker's writes), the batch's task rows are locked first (serialising
 * with `claimTask`, whose update locks the row to change its owner) and every write and
 * notification for a task claimed by another worker is dropped: a worker taken for dead, whose
 * tasks now run elsewhere, cannot overwrite them. Returns the ids of the tasks whose writes were
 * dropped. The work is done by `troupe.write_batch` (schema 5), from the arrays prepared here.
 */
export async function writeBatchWith(
  client: pg.ClientBase | pg.Pool,
  batch: WriteBatch,
  workerId?: string,
): Promise<string[]> {
  const { rows } = await client.query<{ fenced: string[] }>(
    `SELECT troupe.write_batch(${Array.from({ length: 27 }, (_, index) => `$${index + 1}`).join(', ')}) AS fenced`,
    [workerId ?? null, workerId === undefined ? [] : batchTasks(batch), ...batchArguments(batch)],
  );
  return rows[0]?.fenced ?? [];
}

/** The tasks a batch writes for (each once): the rows a fenced batch locks. */
function batchTasks(batch: WriteBatch): string[] {
  const ids = new Set<string>();
  for (const record of batch.statuses) ids.add(record.taskId);
  for (const item of batch.journal) ids.add(item.taskId);
  for (const item of batch.snapshots) ids.add(item.taskId);
  for (const document of batch.results) ids.add(document.result.taskId);
  for (const item of batch.notifications ?? []) if (item.taskId !== undefined) ids.add(item.taskId);
  return [...ids];
}

/** The arguments of `troupe.write_batch` after the fencing worker and its tasks, in its order. */
function batchArguments(batch: WriteBatch): unknown[] {
  const created = batch.statuses.filter((record) => record.spec);
  const { updates, finals } = statusUpdates(batch.statuses);
  // Of a task's final records, only the one its update applies can be logged (if it ended the task).
  const logged = batch.statuses.filter(
    (record) => !isFinalStatus(record.status) || finals.get(record.taskId) === record,
  );
  const notifications = batch.notifications ?? [];
  return [
    created.map((record) => record.taskId),
    created.map((record) => record.spec!.createdAt),
    created.map((record) => record.spec!.sessionKey),
    created.map((record) => record.spec!.agent),
    created.map((record) => record.status),
    created.map((record) => record.at),
    created.map((record) => JSON.stringify(record.spec)),
    created.map((record) => record.v),
    [...updates.keys()],
    [...updates.values()].map((update) => update.status),
    [...updates.values()].map((update) => update.at),
    [...updates.values()].map((update) => update.result),
    logged.map((record) => record.taskId),
    logged.map((record) => JSON.stringify(record)),
    logged.map((record) => isFinalStatus(record.status)),
    batch.journal.map((item) => item.taskId),
    batch.journal.map((item) => item.entry.seq),
    batch.journal.map((item) => JSON.stringify(item.entry)),
    batch.snapshots.map((item) => item.taskId),
    batch.snapshots.map((item) => JSON.stringify(item.document)),
    batch.results.map((document) => document.result.taskId),
    batch.results.map((document) => JSON.stringify(document)),
    notifications.map((item) => item.channel),
    notifications.map((item) => item.taskId ?? null),
    notifications.map((item) => item.payload),
  ];
}

/**
 * Each task's latest status in a batch (a final status is never replaced: a batch retried after
 * an outage may hold two), and the final record each update applies.
 */
function statusUpdates(records: readonly TaskStatusRecord[]): {
  updates: Map<string, StatusUpdate>;
  finals: Map<string, TaskStatusRecord>;
} {
  const updates = new Map<string, StatusUpdate>();
  const finals = new Map<string, TaskStatusRecord>();
  for (const record of records) {
    if (record.spec) continue;
    const previous = updates.get(record.taskId);
    if (previous && isFinalStatus(previous.status)) continue;
    if (isFinalStatus(record.status)) finals.set(record.taskId, record);
    updates.set(record.taskId, {
      status: record.status,
      at: record.at,
      result: record.result ? JSON.stringify(record.result) : (previous?.result ?? null),
    });
  }
  return { updates, finals };
}
