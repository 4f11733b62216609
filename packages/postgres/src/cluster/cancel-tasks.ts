import type { TaskSpec } from '@troupe/core';
import { cancelledBeforeStart, taskEventBase } from '@troupe/core/internal';
import { finalRecord, resultDocument } from '@troupe/core/store';
import type pg from 'pg';
import { FINAL_STATUS_LIST } from '../store/final-statuses-sql.js';
import { writeBatchWith } from '../store/write-batch.js';
import { EVENTS_CHANNEL, encodeEvent } from './channels.js';

/** What a cancellation found: tasks it ended while queued, and running tasks it asked to stop. */
export interface CancelOutcome {
  queued: string[];
  running: string[];
}

/**
 * In one transaction: marks the matching unfinished tasks as cancel-requested (a worker that
 * claims or takes one over sees it), and ends those no worker has claimed right here (status
 * record, result, `task.cancelled` notification). The row lock serialises this with
 * `claimTask`, so a task is either ended here or cancelled by the worker that claimed it,
 * never both.
 */
export async function cancelTasks(
  pool: pg.Pool,
  where: { taskId: string } | { sessionKey: string },
  reason: string,
): Promise<CancelOutcome> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const condition = 'taskId' in where ? 'task_id = $1' : 'session_key = $1';
    const { rows } = await client.query<{ task_id: string; claimed: boolean; spec: TaskSpec }>(
      `UPDATE troupe.tasks SET cancel_requested = $2
       WHERE ${condition} AND status NOT IN ${FINAL_STATUS_LIST}
       RETURNING task_id, worker_id IS NOT NULL AS claimed, spec`,
      ['taskId' in where ? where.taskId : where.sessionKey, reason],
    );
    // A claimed task may still read `queued` (its start is not stored yet): its worker ends it.
    const queued = rows.filter((row) => !row.claimed);
    const at = Date.now();
    const results = queued.map((row) => cancelledBeforeStart(row.spec, reason));
    await writeBatchWith(client, {
      statuses: results.map((result) => finalRecord(result, at)),
      journal: [],
      snapshots: [],
      results: results.map((result) => resultDocument(result)),
    });
    for (const [index, row] of queued.entries()) {
      const event = Object.assign(taskEventBase(row.spec, at), { result: results[index]! });
      await client.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, encodeEvent('task.cancelled', event)]);
    }
    await client.query('COMMIT');
    return {
      queued: queued.map((row) => row.task_id),
      running: rows.filter((row) => row.claimed).map((row) => row.task_id),
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
