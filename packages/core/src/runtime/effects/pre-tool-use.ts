import { hookName, hookStopMessage } from '../../hooks/hook-answers.js';
import type { PreToolUseOutcome } from '../../hooks/hook-points.js';
import { preToolUseAnswer } from '../../hooks/tool-hooks.js';
import type { SubagentEvent, ToolCallPlan } from '../../machines/subagent-events.js';
import type { SubagentContext } from '../../machines/subagent-machine.js';
import { toolResultText } from '../../model/tool-result-content.js';
import type { ToolUseBlock } from '../../model/types.js';
import { checkToolCall, errorResult } from '../../tools/run-tool-call.js';
import type { EffectIO } from './effect-io.js';
import { findUse } from './find-use.js';
import { decideCall } from './plan-tool-call.js';
import type { WaitingCall } from './pre-tool-use-due.js';

/**
 * Asks the `PreToolUse` hook about each of `due` (in parallel) and resolves with the event that
 * records the answers: `tool.hooked` with each call planned anew, or `hook.stopped` when a hook
 * answered `continue: false` (no call of them runs). Undefined once `signal` aborted.
 */
export async function answerPreToolUse(
  io: EffectIO,
  context: SubagentContext,
  due: readonly WaitingCall[],
  signal: AbortSignal,
): Promise<SubagentEvent | undefined> {
  const answered = await Promise.all(
    due.map(async (call) => {
      const use = findUse(context, call.toolUseId);
      if (!use)
        return {
          plan: {
            toolUseId: call.toolUseId,
            name: call.name,
            disposition: 'rejected' as const,
            result: errorResult(call.toolUseId, 'Error: tool call not found.'),
          },
        };
      const answer = await preToolUseAnswer(io, use, signal);
      if (answer?.stop) return { stop: hookStopMessage('PreToolUse', { ...answer, stop: answer.stop }) };
      return { plan: planHookedCall(io, use, answer) };
    }),
  );
  if (signal.aborted) return undefined;
  const at = io.host.clock.now();
  for (const answer of answered) if (answer.stop) return { type: 'hook.stopped', at, reason: answer.stop };
  return { type: 'tool.hooked', at, plan: answered.map((answer) => answer.plan!) };
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
