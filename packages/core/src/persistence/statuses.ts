import type { RuntimeEventName } from '../events.js';
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

/** The event a task ends with, one per final status (`task.<status>`). */
export type FinalTaskEvent = `task.${FinalTaskStatus}`;

/** The events a task ends with: `task.completed`, `task.failed`, `task.cancelled`. */
export const FINAL_TASK_EVENTS = Object.freeze(['task.completed', 'task.failed', 'task.cancelled'] as const);

/** True when `name` is the event of a task's end (`task.completed`, `task.failed`, `task.cancelled`). */
export function isFinalTaskEvent(name: string): name is FinalTaskEvent {
  return name === 'task.completed' || name === 'task.failed' || name === 'task.cancelled';
}

/**
 * Every runtime event about a task, in the order of a task's life: what a host forwards to show
 * tasks elsewhere (a page over server-sent events, a cluster's clients). The runtime's other
 * events (`store.error`, `runtime.warning`) are about the runtime.
 */
export const TASK_EVENT_NAMES: readonly RuntimeEventName[] = /* @__PURE__ */ Object.freeze([
  'task.queued',
  'task.started',
  'task.progress',
  'tool.started',
  'tool.finished',
  'approval.requested',
  'approval.resolved',
  ...FINAL_TASK_EVENTS,
  'task.announced',
]);
