import type { TaskSpec, TaskSummary } from './types.js';

/**
 * What every source of a task knows of it without running it: its spec (a runtime's table, a
 * stored task) or its summary (a store's index). A summary and a `TaskInfo` are both made from it.
 */
export type TaskFacts = Pick<TaskSummary, (typeof TASK_FACT_KEYS)[number]>;

/**
 * The fields of a spec that a task's summary shows (its facts: id, agent, description, session,
 * background, depth, model, creation time, parent): an index that keeps specs whole reads only
 * these for a page of summaries.
 */
export const TASK_FACT_KEYS = [
  'taskId',
  'agent',
  'description',
  'sessionKey',
  'background',
  'depth',
  'model',
  'createdAt',
  'parentTaskId',
] as const satisfies readonly (keyof TaskSummary)[];

/** A task's facts, picked from its spec or summary (`parentTaskId` only when it has a parent). */
export function factsOf(task: TaskFacts): TaskFacts {
  const facts: TaskFacts = {
    taskId: task.taskId,
    agent: task.agent,
    description: task.description,
    sessionKey: task.sessionKey,
    background: task.background,
    depth: task.depth,
    model: task.model,
    createdAt: task.createdAt,
  };
  if (task.parentTaskId) facts.parentTaskId = task.parentTaskId;
  return facts;
}

/** Whether `spec` is an agent team's own task (its team restores it; it never runs as a task). */
export function isTeamTask(spec: TaskSpec): boolean {
  return spec.team !== undefined && spec.team.member === undefined;
}
