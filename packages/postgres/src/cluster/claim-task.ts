import type { StoredTask, TaskSpec, TaskStatus } from '@troupe/core';
import type pg from 'pg';

/** A task a worker has claimed, with the cancellation requested before it started, if any. */
export interface ClaimedTask {
  task: StoredTask;
  cancelRequested: string | undefined;
}

/**
 * Marks an unfinished task as `workerId`'s, in one statement (one round trip). The update locks
 * the row, so a concurrent {@link cancelTasks} either ends it as queued before this, or sees it
 * claimed and leaves it to the worker, and a fenced write batch of its previous owner waits for
 * the claim and is then dropped. Undefined if the task already ended (cancelled while queued)
 * or is unknown.
 */
export async function claimTask(
  pool: pg.Pool,
  taskId: string,
  workerId: string,
): Promise<ClaimedTask | undefined> {
  const { rows } = await pool.query(
    `UPDATE troupe.tasks SET worker_id = $2
     WHERE task_id = $1 AND status NOT IN ('completed', 'failed', 'cancelled')
     RETURNING spec, status, updated_at, cancel_requested`,
    [taskId, workerId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const task: StoredTask = {
    spec: row.spec as TaskSpec,
    status: row.status as TaskStatus,
    updatedAt: Number(row.updated_at),
  };
  return { task, cancelRequested: row.cancel_requested ?? undefined };
}
