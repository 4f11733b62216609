import { isFinalStatus } from './statuses.js';
import type { StoredTask, TaskStatusRecord } from './types.js';

/**
 * Applies one status record to the tasks folded so far, in place. The record with a `spec`
 * creates the task (a second one is ignored); later records update its status, time and result.
 * Records of unknown tasks (pruned ones) are ignored, and a final status is never replaced.
 * Returns the task's new state, or undefined when the record changed nothing.
 */
export function applyStatusRecord(
  tasks: Map<string, StoredTask>,
  record: TaskStatusRecord,
): StoredTask | undefined {
  const existing = tasks.get(record.taskId);
  if (record.spec) {
    if (existing) return undefined;
    const created: StoredTask = { spec: record.spec, status: record.status, updatedAt: record.at };
    tasks.set(record.taskId, created);
    return created;
  }
  if (!existing || isFinalStatus(existing.status)) return undefined;
  const updated: StoredTask = { spec: existing.spec, status: record.status, updatedAt: record.at };
  const result = record.result ?? existing.result;
  if (result) updated.result = result;
  tasks.set(record.taskId, updated);
  return updated;
}

/** Folds a status log into one {@link StoredTask} per task, in first-seen order. */
export function foldStatusRecords(records: Iterable<TaskStatusRecord>): Map<string, StoredTask> {
  const tasks = new Map<string, StoredTask>();
  for (const record of records) applyStatusRecord(tasks, record);
  return tasks;
}
