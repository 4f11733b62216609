import { isFinalStatus } from '../persistence/statuses.js';
import type { TaskSummary } from '../persistence/types.js';
import type { TaskInfo } from './task-table.js';

/**
 * What `runtime.get` would say of a task known only from the store (it ended before a restart,
 * or another process runs it): its counts come from its result, once it has one.
 */
export function infoFromSummary(summary: TaskSummary): TaskInfo {
  const { result } = summary;
  const info: TaskInfo = {
    id: summary.taskId,
    agent: summary.agent,
    status: summary.status,
    sessionKey: summary.sessionKey,
    description: summary.description,
    background: summary.background,
    depth: summary.depth,
    model: result?.model ?? summary.model,
    createdAt: summary.createdAt,
    turns: result?.turns ?? 0,
    toolCalls: result?.toolCalls ?? 0,
    tokens: result?.usage.total ?? 0,
    elapsedMs: result?.durationMs ?? 0,
  };
  if (summary.parentTaskId) info.parentTaskId = summary.parentTaskId;
  if (isFinalStatus(summary.status)) info.endedAt = summary.updatedAt;
  if (result) info.result = result;
  return info;
}
