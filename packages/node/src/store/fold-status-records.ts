import type { StoredTask, TaskStatusRecord } from '@troupe/core';
import type { JsonLine } from './read-json-lines.js';

const FINAL = new Set(['completed', 'failed', 'cancelled']);

/**
 * Folds the status log into one {@link StoredTask} per task, in first-seen order. The record
 * with a `spec` creates the task (a second one is ignored); later records update its status,
 * time and result. Exact duplicate lines (written twice around a concurrent `prune`) are applied
 * once, records of unknown tasks (pruned ones) are ignored, and a final status is never replaced.
 */
export function foldStatusRecords(lines: readonly JsonLine<TaskStatusRecord>[]): Map<string, StoredTask> {
  const tasks = new Map<string, StoredTask>();
  const seen = new Set<string>();
  for (const { value: record, text } of lines) {
    if (seen.has(text)) continue;
    seen.add(text);
    const existing = tasks.get(record.taskId);
    if (record.spec) {
      if (!existing)
        tasks.set(record.taskId, { spec: record.spec, status: record.status, updatedAt: record.at });
      continue;
    }
    if (!existing || FINAL.has(existing.status)) continue;
    tasks.set(record.taskId, {
      ...existing,
      status: record.status,
      updatedAt: record.at,
      ...(record.result ? { result: record.result } : {}),
    });
  }
  return tasks;
}
