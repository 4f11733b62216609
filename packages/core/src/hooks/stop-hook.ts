import type { SubagentContext } from '../machines/subagent-context.js';
import { textOf } from '../model/content.js';
import type { ModelResponse } from '../model/types.js';
import type { EffectIO } from '../runtime/effects/effect-io.js';
import { askHook, isStopHookMessage, readSubagentStop } from './hook-answers.js';
import { hookBase } from './tool-hooks.js';

/**
 * Asks the host's `SubagentStop` hook about a sub-agent's final answer (`response`, not yet in
 * `context`). Resolves with the reason when the hook blocks it (the sub-agent goes on), else
 * undefined; always undefined for a main agent's run or without such a hook.
 */
export async function stopHookAnswer(
  io: EffectIO,
  context: SubagentContext,
  response: ModelResponse,
  signal: AbortSignal,
): Promise<string | undefined> {
  const hooks = io.host.hooks;
  if (!hooks?.subagentStop || io.spec.depth < 1) return undefined;
  const messages = [...context.messages, { role: 'assistant' as const, content: response.content }];
  const call = {
    ...hookBase(io),
    lastAssistantMessage: textOf(response.content),
    stopHookActive: isStopHookMessage(context.messages[context.messages.length - 1]),
    messages,
  };
  const answer = await askHook(
    'SubagentStop',
    () => hooks.subagentStop?.(call, signal),
    readSubagentStop,
    (message) => io.warn('HOOK_FAILED', `Task ${io.spec.taskId}: ${message}`),
  );
  return answer?.block;
}
