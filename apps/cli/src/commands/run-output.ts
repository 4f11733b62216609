import type { TaskInfo, TaskResult } from '@troupe/core';

/** The JSON `troupe run --json` prints: the result, follow-up replies, and every task it started. */
export function resultJson(result: TaskResult, followUps: readonly string[], tasks: readonly TaskInfo[]) {
  return {
    taskId: result.taskId,
    agent: result.agent,
    status: result.status,
    terminateReason: result.terminateReason,
    output: result.output,
    turns: result.turns,
    toolCalls: result.toolCalls,
    durationMs: result.durationMs,
    model: result.model,
    usage: result.usage,
    ...(result.error ? { error: result.error } : {}),
    ...(followUps.length ? { followUps } : {}),
    tasks: tasks.map((info) => ({
      id: info.id,
      agent: info.agent,
      description: info.description,
      status: info.status,
      ...(info.result ? { terminateReason: info.result.terminateReason } : {}),
      background: info.background,
      toolCalls: info.toolCalls,
      durationMs: info.elapsedMs,
      tokens: info.tokens,
    })),
  };
}
