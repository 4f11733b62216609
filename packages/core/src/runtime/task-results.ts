import type { SubagentOutput } from '../machines/subagent-machine.js';
import type { TaskResult, TaskSpec } from '../persistence/types.js';

// Snapshot documents are made with a task's other documents (`persistence/task-documents.ts`);
// exported here too for the imports written before they moved.

/** The result of a task cancelled before it ever started (no turns, no tokens). */
export function cancelledBeforeStart(spec: TaskSpec, message: string): TaskResult {
  return {
    taskId: spec.taskId,
    agent: spec.agent,
    status: 'cancelled',
    terminateReason: 'ABORTED',
    output: '',
    turns: 0,
    toolCalls: 0,
    durationMs: 0,
    model: spec.model,
    usage: { input: 0, output: 0, total: 0 },
    error: { name: 'TroupeError', code: 'ABORTED', message },
  };
}

/** The result of a task whose persisted state cannot be restored (`PERSISTENCE_CORRUPT`). */
export function corruptBeforeRestore(spec: TaskSpec, message: string): TaskResult {
  return {
    ...cancelledBeforeStart(spec, message),
    status: 'failed',
    terminateReason: 'ERROR',
    error: { name: 'PersistenceError', code: 'PERSISTENCE_CORRUPT', message },
  };
}

/** A task result from the machine's output. */
export function toResult(spec: TaskSpec, output: SubagentOutput): TaskResult {
  const result: TaskResult = {
    taskId: spec.taskId,
    agent: spec.agent,
    status: output.status,
    terminateReason: output.terminateReason,
    output: output.output,
    turns: output.turns,
    toolCalls: output.toolCalls,
    durationMs: output.startedAt ? Math.max(0, output.endedAt - output.startedAt) : 0,
    model: output.model,
    usage: { ...output.usage, total: output.usage.input + output.usage.output },
  };
  if (output.usageByModel) result.usageByModel = output.usageByModel;
  if (output.error) result.error = output.error;
  return result;
}
