import type { ToolCallPlan } from '../../machines/subagent-events.js';
import type { SubagentContext } from '../../machines/subagent-machine.js';

/** A call of the plan whose `PreToolUse` hook has not answered yet. */
export type WaitingCall = Extract<ToolCallPlan, { disposition: 'hook' }>;

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
