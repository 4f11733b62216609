import type { StoredTask, TaskSpec, TaskStatus } from '@troupe/core';
import { parseStatusRecord } from '@troupe/core/store';
import type pg from 'pg';
import { FINAL_STATUS_LIST } from '../store/final-statuses-sql.js';

/** A task a worker has claimed, with the cancellation requested before it started, if any. */
export interface ClaimedTask {
  task: StoredTask;
  cancelRequested: string | undefined;
}

/**
 * A task a worker has claimed but cannot run: its stored row does not hold a readable spec.
 * `spec` is what the row holds (for naming the task's agent, if it can).
 */
export interface UnreadableTask {
  unreadable: string;
  spec: unknown;
}

/**
 * Marks an unfinished task as `workerId`'s, in one statement (one round trip). The update locks
 * the row, so a concurrent {@link cancelTasks} either ends it as queued before this, or sees it
 * claimed and leaves it to the worker, and a fenced write batch of its previous owner waits for
 * the claim and is then dropped. Undefined if the task already ended (cancelled while queued)
 * or is unknown. The row is checked with the shared parser as the record that created the task:
 * a row that is not a task's (another id, a missing field, an unknown status) is an
 * {@link UnreadableTask}, for the worker to end as failed.
 */
export async function claimTask(
  pool: pg.Pool,
  taskId: string,
  workerId: string,
): Promise<ClaimedTask | UnreadableTask | undefined> {
  const { rows } = await pool.query(
    `UPDATE troupe.tasks SET worker_id = $2
     WHERE task_id = $1 AND status NOT IN ${FINAL_STATUS_LIST}
     RETURNING v, created_at, spec, status, updated_at, cancel_requested`,
    [taskId, workerId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const parsed = parseStatusRecord({
    v: row.v,
    taskId,
    event: 'task.queued',
    status: row.status,
    at: Number(row.created_at),
    spec: row.spec,
  });
  if (!parsed.ok || !parsed.value.spec)
    return {
      unreadable: `Task ${taskId} cannot be run: its row in troupe.tasks (its spec and status) cannot be read: ${parsed.ok ? 'The status record has no spec' : parsed.message}.`,
      spec: row.spec,
    };
  const task: StoredTask = {
    spec: row.spec as TaskSpec,
    status: row.status as TaskStatus,
    updatedAt: Number(row.updated_at),
  };
  return { task, cancelRequested: row.cancel_requested ?? undefined };
}
