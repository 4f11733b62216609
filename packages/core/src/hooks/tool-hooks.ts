import { toolResultText } from '../model/tool-result-content.js';
import type { ToolResultBlock, ToolUseBlock } from '../model/types.js';
import type { RefusedInput } from '../model/validate-response.js';
import type { EffectIO } from '../runtime/effects/effect-io.js';
import { askHook, readPostToolUse, readPreToolUse } from './hook-answers.js';
import type { HookCallBase, PreToolUseOutcome } from './hook-points.js';

/** The fields of every hook call about `io`'s run. */
export function hookBase(io: EffectIO): HookCallBase {
  const spec = io.spec;
  return { sessionId: spec.sessionKey, agentId: spec.taskId, agentType: spec.agent, depth: spec.depth };
}

/**
 * What the host's `PreToolUse` hook answers about each call of a response that names a tool of the
 * task (in parallel), by tool_use id. Empty without such a hook.
 */
export async function preToolUseAnswers(
  io: EffectIO,
  uses: readonly ToolUseBlock[],
  refused: ReadonlyMap<string, RefusedInput>,
  signal: AbortSignal,
): Promise<Map<string, PreToolUseOutcome>> {
  const answers = new Map<string, PreToolUseOutcome>();
  const hooks = io.host.hooks;
  if (!hooks?.preToolUse) return answers;
  const base = hookBase(io);
  const warn = (message: string) => io.warn('HOOK_FAILED', `Task ${io.spec.taskId}: ${message}`);
  await Promise.all(
    uses
      .filter((use) => io.registry.has(use.name) && !refused.has(use.id))
      .map(async (use) => {
        const call = { ...base, toolName: use.name, toolInput: use.input, toolUseId: use.id };
        const answer = await askHook(
          `PreToolUse (${use.name})`,
          () => hooks.preToolUse?.(call, signal),
          readPreToolUse,
          warn,
        );
        if (answer) answers.set(use.id, answer);
      }),
  );
  return answers;
}

/**
 * `result` with what the host's `PostToolUse` hook says about it (an objection, added context) as
 * text blocks after the tool's own content. Unchanged without such a hook, for an error result,
 * or when the hook says nothing.
 */
export async function withPostToolUse(
  io: EffectIO,
  use: ToolUseBlock,
  result: ToolResultBlock,
  signal: AbortSignal,
): Promise<ToolResultBlock> {
  const hooks = io.host.hooks;
  if (!hooks?.postToolUse || result.is_error) return result;
  const call = {
    ...hookBase(io),
    toolName: use.name,
    toolInput: use.input,
    toolUseId: use.id,
    toolResponse: toolResultText(result.content),
  };
  const answer = await askHook(
    `PostToolUse (${use.name})`,
    () => hooks.postToolUse?.(call, signal),
    readPostToolUse,
    (message) => io.warn('HOOK_FAILED', `Task ${io.spec.taskId}: ${message}`),
  );
  const texts: string[] = [];
  if (answer?.block) texts.push(`PostToolUse hook feedback: ${answer.block}`);
  if (answer?.additionalContext) texts.push(`PostToolUse hook context: ${answer.additionalContext}`);
  if (!texts.length) return result;
  const content =
    typeof result.content === 'string' ? [{ type: 'text' as const, text: result.content }] : result.content;
  return { ...result, content: [...content, ...texts.map((text) => ({ type: 'text' as const, text }))] };
}
