import { toolResultText } from '../model/tool-result-content.js';
import type { ToolResultBlock, ToolUseBlock } from '../model/types.js';
import type { EffectIO } from '../runtime/effects/effect-io.js';
import { withTexts } from '../runtime/effects/with-texts.js';
import { askHook, hookStopMessage, readPostToolUse, readPreToolUse } from './hook-answers.js';
import type { HookCallBase, HookOutcomeBase, PreToolUseOutcome } from './hook-points.js';

/** The fields of every hook call about `io`'s run. */
export function hookBase(io: EffectIO): HookCallBase {
  const spec = io.spec;
  return { sessionId: spec.sessionKey, agentId: spec.taskId, agentType: spec.agent, depth: spec.depth };
}

/** Tells the user a hook's `systemMessage` (a `HOOK_MESSAGE` warning), if it has one. */
export function reportHookMessage(io: EffectIO, point: string, outcome: HookOutcomeBase | undefined): void {
  if (!outcome?.systemMessage) return;
  io.warn(
    'HOOK_MESSAGE',
    `Task ${io.spec.taskId}: ${point} hook${outcome.source ? ` (${outcome.source})` : ''}: ${outcome.systemMessage}`,
  );
}

/** What the host's `PreToolUse` hook answers about one call (the model's input), or undefined. */
export async function preToolUseAnswer(
  io: EffectIO,
  use: ToolUseBlock,
  signal: AbortSignal,
): Promise<PreToolUseOutcome | undefined> {
  const hooks = io.host.hooks;
  if (!hooks?.preToolUse) return undefined;
  const call = { ...hookBase(io), toolName: use.name, toolInput: use.input, toolUseId: use.id };
  const answer = await askHook(
    `PreToolUse (${use.name})`,
    () => hooks.preToolUse?.(call, signal),
    readPreToolUse,
    (message) => io.warn('HOOK_FAILED', `Task ${io.spec.taskId}: ${message}`),
  );
  reportHookMessage(io, 'PreToolUse', answer);
  return answer;
}

/** A call's result once its `PostToolUse` / `PostToolUseFailure` hook spoke, and whether it stopped the task. */
export interface HookedResult {
  result: ToolResultBlock;
  /** The hook answered `continue: false`: the message the task ends with. */
  stop?: string;
}

/**
 * `result` with what the host's `PostToolUse` hook (or, for an error result, `PostToolUseFailure`
 * hook) says about it — an objection, added context — as text blocks after the tool's own
 * content. `use` holds the input the call ran with. Unchanged without such a hook or when the hook
 * says nothing.
 */
export async function withPostToolUse(
  io: EffectIO,
  use: ToolUseBlock,
  result: ToolResultBlock,
  signal: AbortSignal,
): Promise<HookedResult> {
  const hooks = io.host.hooks;
  const failed = result.is_error === true;
  const point = failed ? 'PostToolUseFailure' : 'PostToolUse';
  if (failed ? !hooks?.postToolUseFailure : !hooks?.postToolUse) return { result };
  const base = { ...hookBase(io), toolName: use.name, toolInput: use.input, toolUseId: use.id };
  const text = toolResultText(result.content);
  const answer = await askHook(
    `${point} (${use.name})`,
    () =>
      failed
        ? hooks?.postToolUseFailure?.({ ...base, error: text, isInterrupt: false }, signal)
        : hooks?.postToolUse?.({ ...base, toolResponse: text }, signal),
    readPostToolUse,
    (message) => io.warn('HOOK_FAILED', `Task ${io.spec.taskId}: ${message}`),
  );
  reportHookMessage(io, point, answer);
  const texts: string[] = [];
  if (answer?.block) texts.push(`${point} hook feedback: ${answer.block}`);
  if (answer?.additionalContext) texts.push(`${point} hook context: ${answer.additionalContext}`);
  const hooked = withTexts(result, texts);
  return answer?.stop
    ? { result: hooked, stop: hookStopMessage(point, { ...answer, stop: answer.stop }) }
    : { result: hooked };
}
