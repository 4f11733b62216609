import type { SubagentInput } from '../machines/subagent-context.js';
import type { TaskSpec } from './types.js';

/** The default grace turn for a task with `timeoutMs`: a fifth of it, between 1 ms and 30 s. */
export function defaultGraceMs(timeoutMs: number): number {
  return Math.max(1, Math.min(30_000, Math.floor(timeoutMs / 5)));
}

/**
 * What the subagent machine starts from, for a persisted task spec. The live run, a restore and
 * a replay all build the input here, so they agree (a version-1 spec has no `graceMs`: the
 * default for its timeout applies, which is what the live run used unless the runtime set one).
 */
export function machineInputFromSpec(spec: TaskSpec): SubagentInput {
  return {
    taskId: spec.taskId,
    agent: spec.agent,
    model: spec.model,
    messages: spec.messages,
    limits: spec.limits,
    graceMs: spec.graceMs ?? defaultGraceMs(spec.limits.timeoutMs),
    hasOutputSchema: spec.outputSchema !== undefined,
  };
}
