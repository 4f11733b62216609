import type { ApprovalRequest } from '../../events.js';
import type { ToolCallPlan } from '../../machines/subagent-events.js';
import type { SubagentContext } from '../../machines/subagent-machine.js';
import type { ToolUseBlock } from '../../model/types.js';
import type { ToolAccess } from '../../tools/define-tool.js';
import type { EffectIO } from './effect-io.js';
import { findUse } from './find-use.js';

/** The approval request for a call of this task. Its id is `<task id>:<tool_use id>`. */
export function approvalRequest(
  io: EffectIO,
  use: ToolUseBlock,
  tool: string,
  access: ToolAccess,
): ApprovalRequest {
  const spec = io.spec;
  return {
    id: `${spec.taskId}:${use.id}`,
    taskId: spec.taskId,
    agent: spec.agent,
    sessionKey: spec.sessionKey,
    description: spec.description,
    tool,
    access,
    toolUseId: use.id,
    input: use.input,
    background: spec.background,
    requestedAt: io.host.clock.now(),
    ...(spec.permissionMode ? { permissionMode: spec.permissionMode } : {}),
  };
}

/**
 * The approval effect (`awaitingApproval`): asks the policy or the host about the next call and
 * resolves with the decision as the machine's event. Aborting `signal` withdraws the request.
 */
export async function askApproval(
  io: EffectIO,
  context: SubagentContext,
  call: Extract<ToolCallPlan, { disposition: 'approval' }>,
  signal: AbortSignal,
) {
  const found = findUse(context, call.toolUseId) ?? {
    type: 'tool_use' as const,
    id: call.toolUseId,
    name: call.name,
    input: undefined,
  };
  // The host decides on the input that would run: a `PreToolUse` hook's, when it gave one.
  const use = call.input === undefined ? found : { ...found, input: call.input };
  const answer = await io.host.requestApproval(
    approvalRequest(io, use, call.name, call.access),
    signal,
    call.hookAllowed ? { hookAllowed: true } : undefined,
  );
  const at = io.host.clock.now();
  const toolUseId = call.toolUseId;
  if (answer.decision === 'approve') return { type: 'approval.granted' as const, at, toolUseId };
  return answer.reason
    ? { type: 'approval.denied' as const, at, toolUseId, reason: answer.reason }
    : { type: 'approval.denied' as const, at, toolUseId };
}
