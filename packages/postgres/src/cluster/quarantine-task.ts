import type { TaskEventBase, TaskResult, TaskSpec, TaskStatusRecord } from '@troupe/core';
import { corruptBeforeRestore, taskEventBase } from '@troupe/core/internal';
import { finalRecord } from '@troupe/core/store';

/** The `task.failed` record, result and event that end a task its worker cannot run. */
export interface Quarantine {
  record: TaskStatusRecord;
  event: TaskEventBase & { result: TaskResult };
}

/**
 * Ends task `taskId` as failed with `PERSISTENCE_CORRUPT` and `message` (which names the task
 * and the document that cannot be read). `spec` is what the store holds, possibly malformed:
 * only its fields of the right type are used, so the result is a readable document whatever it
 * holds.
 */
export function quarantine(taskId: string, spec: unknown, message: string, at: number): Quarantine {
  const stored = (typeof spec === 'object' && spec !== null ? spec : {}) as Partial<
    Record<keyof TaskSpec, unknown>
  >;
  const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
  const safe = {
    taskId,
    agent: text(stored.agent, '(unknown agent)'),
    model: text(stored.model, ''),
    sessionKey: text(stored.sessionKey, ''),
    description: text(stored.description, ''),
    depth: typeof stored.depth === 'number' && Number.isInteger(stored.depth) ? stored.depth : 1,
  } as TaskSpec;
  const result = corruptBeforeRestore(safe, message);
  return {
    record: finalRecord(result, at),
    event: Object.assign(taskEventBase(safe, at), { result }),
  };
}
