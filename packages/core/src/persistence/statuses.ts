import type { TaskStatus } from './types.js';

/** Every status a task can have, in the order of its life. */
export const TASK_STATUSES: readonly TaskStatus[] = Object.freeze([
  'queued',
  'running',
  'awaitingApproval',
  'completed',
  'failed',
  'cancelled',
]);

/** The statuses a task ends in. A final status is never replaced. */
export type FinalTaskStatus = 'completed' | 'failed' | 'cancelled';

/** The final statuses. */
export const FINAL_STATUSES: readonly FinalTaskStatus[] = Object.freeze(['completed', 'failed', 'cancelled']);

/** True when `status` is one a task ends in (`completed`, `failed`, `cancelled`). */
export function isFinalStatus(status: string): status is FinalTaskStatus {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** True when `value` names a task status. */
export function isTaskStatus(value: unknown): value is TaskStatus {
  return typeof value === 'string' && (TASK_STATUSES as readonly string[]).includes(value);
}
