import type { StoredTask, TaskEventBase, TaskInfo, TaskSpec } from '@troupe/core';

/** What the store knows of a task, as `runtime.get` reports it (counters come from the result). */
export function taskInfo(task: StoredTask): TaskInfo {
  const { spec, result } = task;
  const info: TaskInfo = {
    id: spec.taskId,
    agent: spec.agent,
    status: task.status,
    sessionKey: spec.sessionKey,
    description: spec.description,
    background: spec.background,
    depth: spec.depth,
    model: result?.model ?? spec.model,
    createdAt: spec.createdAt,
    turns: result?.turns ?? 0,
    toolCalls: result?.toolCalls ?? 0,
    tokens: result ? result.usage.input + result.usage.output : 0,
    elapsedMs: result?.durationMs ?? 0,
  };
  if (spec.parentTaskId) info.parentTaskId = spec.parentTaskId;
  if (result) {
    info.result = result;
    info.endedAt = task.updatedAt;
  }
  return info;
}

/** The common fields of an event about a task that has not started. */
export function queuedEventBase(spec: TaskSpec, at: number): TaskEventBase {
  const base: TaskEventBase = {
    taskId: spec.taskId,
    agent: spec.agent,
    sessionKey: spec.sessionKey,
    description: spec.description,
    at,
    toolCalls: 0,
    turns: 0,
    elapsedMs: 0,
    tokens: 0,
    depth: spec.depth,
  };
  if (spec.parentTaskId) base.parentTaskId = spec.parentTaskId;
  return base;
}
