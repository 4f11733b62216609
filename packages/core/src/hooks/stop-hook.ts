import type { SubagentContext } from '../machines/subagent-context.js';
import { textOf } from '../model/content.js';
import type { ModelResponse } from '../model/types.js';
import type { EffectIO } from '../runtime/effects/effect-io.js';
import { askHook, readSubagentStop } from './hook-answers.js';
import { isStopHookMessage } from './stop-feedback.js';
import { hookBase, reportHookMessage } from './tool-hooks.js';

/**
 * Asks the host's stop hook about an agent's final answer (`response`, not yet in `context`): a
 * sub-agent's `SubagentStop`, a main agent's `Stop`. Resolves with the reason when the hook blocks
 * it (the agent goes on), else undefined. A hook's `continue: false` wins over its block: the
 * agent stops, as it was about to (its `stopReason` is told to the user like a `systemMessage`).
 */
export async function stopHookAnswer(
  io: EffectIO,
  context: SubagentContext,
  response: ModelResponse,
  signal: AbortSignal,
): Promise<string | undefined> {
  const main = io.spec.depth < 1;
  const hooks = io.host.hooks;
  const point = main ? 'Stop' : 'SubagentStop';
  const hook = main ? hooks?.stop : hooks?.subagentStop;
  if (!hook) return undefined;
  const messages = [...context.messages, { role: 'assistant' as const, content: response.content }];
  const call = {
    ...hookBase(io),
    lastAssistantMessage: textOf(response.content),
    stopHookActive: isStopHookMessage(context.messages[context.messages.length - 1]),
    messages,
  };
  const answer = await askHook(
    point,
    () => hook.call(hooks, call, signal),
    readSubagentStop,
    (message) => io.warn('HOOK_FAILED', `Task ${io.spec.taskId}: ${message}`),
  );
  reportHookMessage(io, point, answer);
  if (answer?.stop) {
    reportHookMessage(io, point, { ...answer, systemMessage: `stopped: ${answer.stop}` });
    return undefined;
  }
  return answer?.block;
}
