import type { PreToolUseOutcome } from '../../hooks/hook-points.js';
import type { ToolCallPlan } from '../../machines/subagent-events.js';
import type { ToolUseBlock } from '../../model/types.js';
import type { RefusedInput } from '../../model/validate-response.js';
import type { Tool } from '../../tools/define-tool.js';
import { checkToolCall, errorResult } from '../../tools/run-tool-call.js';
import { approvalRequest } from './approval.js';
import type { EffectIO } from './effect-io.js';

/**
 * How one call of a model response is handled, decided when the response arrives: rejected (a
 * repeated id, an oversized input, an unknown tool, an invalid input, a policy denial), run, or
 * run after an approval; or, when a `PreToolUse` hook applies to it, `hook`: the hook is asked
 * just before the call runs and `planHookedCall` (`pre-tool-use.ts`) decides then. A valid input is kept in
 * `io.inputs` for when the call runs.
 */
export function planToolCall(
  io: EffectIO,
  use: ToolUseBlock,
  seen: Set<string>,
  refused: ReadonlyMap<string, RefusedInput>,
): ToolCallPlan {
  const reject = (message: string): ToolCallPlan => ({
    toolUseId: use.id,
    name: use.name,
    disposition: 'rejected',
    result: errorResult(use.id, message),
  });
  if (seen.has(use.id)) {
    io.warn(
      'DUPLICATE_TOOL_USE_ID',
      `The model used the tool_use id "${use.id}" twice in one response; the repeat was not run.`,
    );
    return reject(
      `Error: the tool_use id "${use.id}" was already used in this response; this call was not run. Give every call its own id.`,
    );
  }
  seen.add(use.id);
  const refusal = refused.get(use.id);
  if (refusal?.kind === 'bounds') {
    io.warn(
      'TOOL_INPUT_TOO_LARGE',
      `The input of the ${use.name} call "${use.id}" was dropped: ${refusal.reason}.`,
    );
    return reject(
      `Error: the input of this ${use.name} call was not accepted: ${refusal.reason}. Send a smaller, flatter input.`,
    );
  }
  if (refusal) {
    io.warn(
      'TOOL_INPUT_NOT_JSON',
      `The input of the ${use.name} call "${use.id}" was dropped: it holds ${refusal.reason}, which JSON cannot hold (the model adapter produced it).`,
    );
    return reject(
      `Error: the input of this ${use.name} call was not accepted: it holds ${refusal.reason}. Send plain JSON.`,
    );
  }
  const checked = checkToolCall(io.registry, use);
  if (!checked.ok)
    return { toolUseId: use.id, name: use.name, disposition: 'rejected', result: checked.result };
  const tool = io.registry.get(use.name)!;
  const hooks = io.host.hooks;
  if (hooks?.preToolUse && (hooks.preToolUseApplies?.(io.spec.agent, tool.name) ?? true))
    return { toolUseId: use.id, name: use.name, access: tool.access, disposition: 'hook' };
  io.inputs.set(use.id, checked.input);
  return decideCall(io, use, tool);
}

/**
 * Run, ask or reject a valid call, by the approval policy and (when asked) its `PreToolUse` hook:
 * `deny` was handled before; `ask` sends it through the approval policy; `allow` answers the
 * host's part of an approval (never a policy's denial).
 */
export function decideCall(
  io: EffectIO,
  use: ToolUseBlock,
  tool: Tool,
  hook?: PreToolUseOutcome,
): ToolCallPlan {
  if (tool.access === 'read')
    return {
      toolUseId: use.id,
      name: use.name,
      access: 'read',
      disposition: hook?.decision === 'ask' ? 'approval' : 'run',
    };
  const host = io.host;
  const disposition = host.dispositionFor(io.spec, tool.name, tool.access);
  if (hook?.decision === 'ask' && disposition === 'run')
    return { toolUseId: use.id, name: use.name, access: tool.access, disposition: 'approval' };
  if (disposition !== 'approval' && host.emitter.listening('approval.resolved')) {
    host.reportAutomaticDecision(
      approvalRequest(io, use, tool.name, tool.access),
      disposition === 'run' ? 'approve' : 'deny',
      typeof disposition === 'object' ? disposition.deny : undefined,
    );
  }
  if (typeof disposition === 'object')
    return {
      toolUseId: use.id,
      name: use.name,
      disposition: 'rejected',
      result: errorResult(use.id, `Permission to run ${tool.name} was denied: ${disposition.deny}`),
    };
  if (disposition === 'approval' && hook?.decision === 'allow')
    return { toolUseId: use.id, name: use.name, access: tool.access, disposition, hookAllowed: true };
  return { toolUseId: use.id, name: use.name, access: tool.access, disposition };
}
