import { describeThrown, toPlainJson } from '../persistence/plain-json.js';
import { DEFAULT_INPUT_BOUNDS } from '../tools/bound-input.js';
import type {
  HookOutcomeBase,
  PostToolUseOutcome,
  PreToolUseOutcome,
  SubagentStartOutcome,
  SubagentStopOutcome,
  UserPromptSubmitOutcome,
} from './hook-points.js';

/** The most characters of a hook's text (a reason, added context) that reach the model and the journal. */
export const MAX_HOOK_TEXT_CHARS = 10_000;

/** `text` cut to {@link MAX_HOOK_TEXT_CHARS}, with a note; undefined for anything but a non-blank string. */
export function hookText(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  if (value.length <= MAX_HOOK_TEXT_CHARS) return value;
  return `${value.slice(0, MAX_HOOK_TEXT_CHARS)}\n[hook output cut: ${value.length - MAX_HOOK_TEXT_CHARS} more characters]`;
}

/**
 * Calls one hook point and reads its answer with `read`. A hook that throws, or answers with
 * something `read` cannot use, is reported through `warn` and counts as no answer.
 */
export async function askHook<T>(
  point: string,
  call: () => Promise<unknown> | undefined,
  read: (value: Record<string, unknown>) => T | undefined,
  warn: (message: string) => void,
): Promise<T | undefined> {
  let value: unknown;
  try {
    value = await call();
  } catch (error) {
    warn(`The ${point} hook failed: ${describeThrown(error)}; it counts as no answer.`);
    return undefined;
  }
  if (value === undefined || value === null) return undefined;
  try {
    if (typeof value === 'object') return read(value as Record<string, unknown>);
  } catch (error) {
    warn(`The ${point} hook's answer could not be read: ${describeThrown(error)}; it counts as no answer.`);
    return undefined;
  }
  warn(`The ${point} hook answered with a ${typeof value}, not an object; it counts as no answer.`);
  return undefined;
}

/** The fields every answer may carry (`stop`, `systemMessage`, `source`), each read once. */
function readCommon(value: Record<string, unknown>): HookOutcomeBase {
  const { stop, systemMessage, source } = value;
  const outcome: HookOutcomeBase = {};
  // `continue: false` with no `stopReason` still stops: a hook that sets it means it.
  if (stop !== undefined && stop !== null && stop !== false)
    outcome.stop = hookText(stop) ?? 'no reason given';
  const message = hookText(systemMessage);
  if (message) outcome.systemMessage = message;
  if (typeof source === 'string' && source.trim()) outcome.source = source.slice(0, 500);
  return outcome;
}

/**
 * A `PreToolUse` answer's fields, each read once. `updatedInput` must be an object of plain JSON
 * within a tool input's bounds; anything else throws (the answer then counts as none, with a warning).
 */
export function readPreToolUse(value: Record<string, unknown>): PreToolUseOutcome {
  const { decision, reason, updatedInput, additionalContext } = value;
  const outcome: PreToolUseOutcome = readCommon(value);
  if (decision === 'allow' || decision === 'deny' || decision === 'ask') outcome.decision = decision;
  const text = hookText(reason);
  if (text) outcome.reason = text;
  const context = hookText(additionalContext);
  if (context) outcome.additionalContext = context;
  if (updatedInput !== undefined && updatedInput !== null) {
    const plain = toPlainJson(updatedInput, 'updatedInput', DEFAULT_INPUT_BOUNDS);
    if (!plain.ok) throw new Error(`its updatedInput cannot be used: ${plain.where}: ${plain.reason}`);
    if (typeof plain.value !== 'object' || plain.value === null || Array.isArray(plain.value))
      throw new Error('its updatedInput is not an object of tool input fields');
    outcome.updatedInput = plain.value as Record<string, unknown>;
  }
  return outcome;
}

/** A `PostToolUse` (or `PostToolUseFailure`) answer's fields, each read once. */
export function readPostToolUse(value: Record<string, unknown>): PostToolUseOutcome {
  const { block, additionalContext } = value;
  const outcome: PostToolUseOutcome = readCommon(value);
  const reason = hookText(block);
  if (reason) outcome.block = reason;
  const context = hookText(additionalContext);
  if (context) outcome.additionalContext = context;
  return outcome;
}

/** A `SubagentStart` answer's fields. */
export function readSubagentStart(value: Record<string, unknown>): SubagentStartOutcome {
  const outcome: SubagentStartOutcome = readCommon(value);
  const context = hookText(value.additionalContext);
  if (context) outcome.additionalContext = context;
  return outcome;
}

/** A `SubagentStop` (or `Stop`) answer's fields. */
export function readSubagentStop(value: Record<string, unknown>): SubagentStopOutcome {
  const outcome: SubagentStopOutcome = readCommon(value);
  const reason = hookText(value.block);
  if (reason) outcome.block = reason;
  return outcome;
}

/** A `UserPromptSubmit` answer's fields. */
export function readUserPromptSubmit(value: Record<string, unknown>): UserPromptSubmitOutcome {
  const outcome: UserPromptSubmitOutcome = readCommon(value);
  const reason = hookText(value.block);
  if (reason) outcome.block = reason;
  const context = hookText(value.additionalContext);
  if (context) outcome.additionalContext = context;
  return outcome;
}

/** `Stopped by a <point> hook (<source>): <reason>` — the message of a task a hook stopped. */
export function hookStopMessage(point: string, outcome: HookOutcomeBase & { stop: string }): string {
  return `Stopped by a ${point} hook${outcome.source ? ` (${outcome.source})` : ''}: ${outcome.stop}`;
}

/** `the <point> hook (<source>)` — a hook named in a message. */
export function hookName(point: string, outcome: HookOutcomeBase | undefined): string {
  return `the ${point} hook${outcome?.source ? ` (${outcome.source})` : ''}`;
}
