import { hookStopMessage } from '../../hooks/hook-answers.js';
import { preToolUseAnswer } from '../../hooks/tool-hooks.js';
import type { SubagentEvent, ToolCallPlan } from '../../machines/subagent-events.js';
import type { SubagentContext } from '../../machines/subagent-machine.js';
import { errorResult } from '../../tools/run-tool-call.js';
import type { EffectIO } from './effect-io.js';
import { findUse } from './find-use.js';
import { planHookedCall } from './plan-tool-call.js';

type WaitingCall = Extract<ToolCallPlan, { disposition: 'hook' }>;

/**
 * The calls whose `PreToolUse` hook is to be asked now: the next call when it waits for its hook,
 * and every waiting read call of the group of read calls that starts at the next call (they run
 * together, so their hooks are asked together, just before). Empty when none waits.
 */
export function preToolUseDue(context: SubagentContext): WaitingCall[] {
  const { plan, results } = context.step;
  const next = plan[results.length];
  if (next?.disposition === 'hook' && next.access !== 'read') return [next];
  const due: WaitingCall[] = [];
  for (let index = results.length; index < plan.length; index++) {
    const call = plan[index]!;
    if (call.disposition === 'rejected' || call.access !== 'read') break;
    if (call.disposition === 'hook') due.push(call);
    else if (call.disposition !== 'run') break;
  }
  return due;
}

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
