import type { StoredTask, TaskSummary } from '@troupe/core';
import { summaryOf } from '@troupe/core/store';
import type { TaskRow } from './task-table.js';

/**
 * A table row for a task's summary (as the store's `listTasks` pages give them). An unfinished
 * task's time is how long ago it was created (it has no result yet to say how long it ran).
 */
export function summaryRow(summary: TaskSummary, now = Date.now()): TaskRow {
  const result = summary.result;
  return {
    id: summary.taskId,
    agent: summary.agent,
    description: summary.description,
    status: summary.status,
    ...(result ? { terminateReason: result.terminateReason } : {}),
    toolCalls: result?.toolCalls ?? 0,
    durationMs: result?.durationMs ?? Math.max(0, now - summary.createdAt),
    tokens: result?.usage.total ?? 0,
  };
}

/** A table row for a task read from the store (see {@link summaryRow}). */
export function storedTaskRow(task: StoredTask, now = Date.now()): TaskRow {
  return summaryRow(summaryOf(task), now);
}
