import type { TaskInfo, TaskResult } from '@troupe/core';

/**
 * The JSON `troupe run --json` prints: the result, follow-up replies, and every task it started.
 * `taskId` is there only when the answer came from a stored task (`--agent`): the main agent's own
 * run is not a task of the store, so it is named by the run's `sessionKey` instead.
 */
export function resultJson(
  result: TaskResult,
  followUps: readonly string[],
  tasks: readonly TaskInfo[],
  run: { sessionKey: string; stored: boolean },
) {
  return {
    ...(run.stored ? { taskId: result.taskId } : {}),
    sessionKey: run.sessionKey,
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
