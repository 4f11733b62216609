import type { StoredTask, TaskSpec, TaskStatus } from '@troupe/core';
import type pg from 'pg';

/** A task a worker has claimed, with the cancellation requested before it started, if any. */
export interface ClaimedTask {
  task: StoredTask;
  cancelRequested: string | undefined;
}

/**
 * Marks an unfinished task as `workerId`'s (row-locked, so a concurrent {@link cancelTasks}
 * either ends it as queued before this, or sees it claimed and leaves it to the worker).
 * Undefined if the task already ended (cancelled while queued) or is unknown.
 */
export async function claimTask(
  pool: pg.Pool,
  taskId: string,
  workerId: string,
): Promise<ClaimedTask | undefined> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query(
      'SELECT spec, status, updated_at, cancel_requested FROM troupe.tasks WHERE task_id = $1 FOR UPDATE',
      [taskId],
    );
    const row = rows[0];
    if (!row || ['completed', 'failed', 'cancelled'].includes(row.status)) {
      await client.query('COMMIT');
      return undefined;
    }
    await client.query('UPDATE troupe.tasks SET worker_id = $2 WHERE task_id = $1', [taskId, workerId]);
    await client.query('COMMIT');
    const task: StoredTask = {
      spec: row.spec as TaskSpec,
      status: row.status as TaskStatus,
      updatedAt: Number(row.updated_at),
    };
    return { task, cancelRequested: row.cancel_requested ?? undefined };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
