import type { TaskEventBase } from '../events.js';
import type { SubagentContext } from '../machines/subagent-machine.js';
import { isFinalStatus } from '../persistence/statuses.js';
import { factsOf, type TaskFacts } from '../persistence/task-facts.js';
import type { StoredTask, TaskResult, TaskStatus, TaskSummary } from '../persistence/types.js';

/** What `get`, `find`, `list` and `history` report about a task (a runtime's or a cluster's). */
export interface TaskInfo {
  id: string;
  agent: string;
  status: TaskStatus;
  sessionKey: string;
  description: string;
  background: boolean;
  depth: number;
  parentTaskId?: string;
  model: string;
  createdAt: number;
  startedAt?: number;
  endedAt?: number;
  turns: number;
  toolCalls: number;
  tokens: number;
  elapsedMs: number;
  result?: TaskResult;
}

export type { TaskFacts };

/** A running task's counters, read from its live actor. */
export interface TaskProgress {
  startedAt?: number;
  turns: number;
  toolCalls: number;
  /** Input + output tokens. */
  tokens: number;
  elapsedMs: number;
  /** The model that answered, when it differs from the one asked for. */
  model?: string;
}

/**
 * The one mapper to {@link TaskInfo}. Counters come from `progress` (a live task), else
 * from the result (an ended one), else zero (a queued one, or one another process runs).
 */
export function taskInfoOf(
  task: TaskFacts,
  state: { status: TaskStatus; result?: TaskResult | undefined; endedAt?: number | undefined },
  progress?: TaskProgress,
): TaskInfo {
  const { result } = state;
  const { taskId, ...facts } = factsOf(task);
  const info: TaskInfo = {
    id: taskId,
    ...facts,
    status: state.status,
    model: progress?.model ?? result?.model ?? task.model,
    turns: progress?.turns ?? result?.turns ?? 0,
    toolCalls: progress?.toolCalls ?? result?.toolCalls ?? 0,
    tokens: progress?.tokens ?? result?.usage.total ?? 0,
    elapsedMs: progress?.elapsedMs ?? result?.durationMs ?? 0,
  };
  if (progress?.startedAt) info.startedAt = progress.startedAt;
  if (state.endedAt !== undefined) info.endedAt = state.endedAt;
  if (result) info.result = result;
  return info;
}

/**
 * What `get` says of a task known only from a store (it ended before a restart, or
 * another process runs it): its counters come from its result, once it has one; it ended when
 * its final status was written.
 */
export function storedTaskInfo(task: TaskSummary | StoredTask): TaskInfo {
  const facts = 'spec' in task ? task.spec : task;
  return taskInfoOf(facts, {
    status: task.status,
    result: task.result,
    endedAt: isFinalStatus(task.status) ? task.updatedAt : undefined,
  });
}

/**
 * A live task's counters as of `now`, read from its actor's context (the one place they are read
 * from it: its events' fields and the runtime's `get` and `list` both come here); undefined before
 * its actor runs.
 */
export function progressOf(context: SubagentContext | undefined, now: number): TaskProgress | undefined {
  if (!context) return undefined;
  const started = context.startedAt;
  const progress: TaskProgress = {
    turns: context.turns,
    toolCalls: context.toolCalls,
    tokens: context.usage.input + context.usage.output,
    elapsedMs: started ? (context.end?.endedAt ?? now) - started : 0,
  };
  if (started) progress.startedAt = started;
  if (context.modelUsed) progress.model = context.modelUsed;
  return progress;
}

/** The common fields of an event about a task: its counters from `progress`, else zero (it has not started). */
export function taskEventBase(task: TaskFacts, at: number, progress?: TaskProgress): TaskEventBase {
  const base: TaskEventBase = {
    taskId: task.taskId,
    agent: task.agent,
    sessionKey: task.sessionKey,
    description: task.description,
    at,
    toolCalls: progress?.toolCalls ?? 0,
    turns: progress?.turns ?? 0,
    elapsedMs: progress?.elapsedMs ?? 0,
    tokens: progress?.tokens ?? 0,
    depth: task.depth,
  };
  if (task.parentTaskId) base.parentTaskId = task.parentTaskId;
  return base;
}
