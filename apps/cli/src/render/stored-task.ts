import type { StoredTask } from '@troupe/core';
import type { TaskRow } from './task-table.js';

/**
 * A table row for a task read from the store. An unfinished task's time is how long ago it was
 * created (it has no result yet to say how long it ran).
 */
export function storedTaskRow(task: StoredTask, now = Date.now()): TaskRow {
  const result = task.result;
  return {
    id: task.spec.taskId,
    agent: task.spec.agent,
    description: task.spec.description,
    status: task.status,
    ...(result ? { terminateReason: result.terminateReason } : {}),
    toolCalls: result?.toolCalls ?? 0,
    durationMs: result?.durationMs ?? Math.max(0, now - task.spec.createdAt),
    tokens: result?.usage.total ?? 0,
  };
}
