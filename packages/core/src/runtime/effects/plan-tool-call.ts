import { hookName } from '../../hooks/hook-answers.js';
import type { PreToolUseOutcome } from '../../hooks/hook-points.js';
import type { ToolCallPlan } from '../../machines/subagent-events.js';
import { toolResultText } from '../../model/tool-result-content.js';
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
 * just before the call runs and {@link planHookedCall} decides then. A valid input is kept in
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
 * The plan of a call whose `PreToolUse` hook answered `hook` (undefined: no answer): `deny`
 * rejects it; an `updatedInput` is checked against the tool's schema (a bad one rejects the call,
 * naming the hook) and runs in place of the model's; then the call is decided as any other, the
 * hook's `ask` or `allow` weighing in. The hook's `additionalContext` rides along for the model.
 */
export function planHookedCall(
  io: EffectIO,
  use: ToolUseBlock,
  hook: PreToolUseOutcome | undefined,
): ToolCallPlan {
  const context = hook?.additionalContext;
  const note = context ? `\nPreToolUse hook context: ${context}` : '';
  const reject = (message: string): ToolCallPlan => ({
    toolUseId: use.id,
    name: use.name,
    disposition: 'rejected',
    result: errorResult(use.id, `${message}${note}`),
  });
  if (hook?.decision === 'deny')
    return reject(
      `Error: a PreToolUse hook blocked this ${use.name} call${hook.reason ? `: ${hook.reason}` : '.'} Do not retry the same call.`,
    );
  const updated = hook?.updatedInput;
  const effective = updated ? { ...use, input: updated } : use;
  const checked = checkToolCall(io.registry, effective);
  if (!checked.ok) {
    if (!updated)
      return { toolUseId: use.id, name: use.name, disposition: 'rejected', result: checked.result };
    const problem = toolResultText(checked.result.content).replace(/^Error: /, '');
    io.warn(
      'HOOK_FAILED',
      `Task ${io.spec.taskId}: ${hookName('PreToolUse', hook)} gave the ${use.name} call "${use.id}" an input its schema refuses: ${problem}`,
    );
    return reject(
      `Error: the ${use.name} call was not run: the input ${hookName('PreToolUse', hook)} put in its place does not match the tool's schema: ${problem}`,
    );
  }
  io.inputs.set(use.id, checked.input);
  const plan = decideCall(io, effective, io.registry.get(use.name)!, hook);
  if (plan.disposition === 'rejected') {
    if (!note) return plan;
    return reject(toolResultText(plan.result.content));
  }
  if (plan.disposition === 'hook') return plan;
  return {
    ...plan,
    ...(updated ? { input: updated } : {}),
    ...(context ? { context } : {}),
  };
}

/**
 * Run, ask or reject a valid call, by the approval policy and (when asked) its `PreToolUse` hook:
 * `deny` was handled before; `ask` sends it through the approval policy; `allow` answers the
 * host's part of an approval (never a policy's denial).
 */
function decideCall(io: EffectIO, use: ToolUseBlock, tool: Tool, hook?: PreToolUseOutcome): ToolCallPlan {
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
