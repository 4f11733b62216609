import type { Message } from '../model/types.js';
import { describeThrown } from '../persistence/plain-json.js';
import type {
  PostToolUseOutcome,
  PreToolUseOutcome,
  SubagentStartOutcome,
  SubagentStopOutcome,
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

/** A `PreToolUse` answer's fields, each read once. */
export function readPreToolUse(value: Record<string, unknown>): PreToolUseOutcome {
  const { decision, reason } = value;
  const outcome: PreToolUseOutcome = {};
  if (decision === 'allow' || decision === 'deny' || decision === 'ask') outcome.decision = decision;
  const text = hookText(reason);
  if (text) outcome.reason = text;
  return outcome;
}

/** A `PostToolUse` answer's fields, each read once. */
export function readPostToolUse(value: Record<string, unknown>): PostToolUseOutcome {
  const { block, additionalContext } = value;
  const outcome: PostToolUseOutcome = {};
  const reason = hookText(block);
  if (reason) outcome.block = reason;
  const context = hookText(additionalContext);
  if (context) outcome.additionalContext = context;
  return outcome;
}

/** A `SubagentStart` answer's fields. */
export function readSubagentStart(value: Record<string, unknown>): SubagentStartOutcome {
  const context = hookText(value.additionalContext);
  return context ? { additionalContext: context } : {};
}

/** A `SubagentStop` answer's fields. */
export function readSubagentStop(value: Record<string, unknown>): SubagentStopOutcome {
  const reason = hookText(value.block);
  return reason ? { block: reason } : {};
}

const STOP_FEEDBACK = 'Stop hook feedback: ';

/** The user message that keeps a sub-agent going after a `SubagentStop` hook blocked its answer. */
export function stopHookMessage(reason: string): Message {
  return { role: 'user', content: `${STOP_FEEDBACK}${reason}` };
}

/** True when `message` is {@link stopHookMessage}'s (the sub-agent goes on because a stop hook blocked). */
export function isStopHookMessage(message: Message | undefined): boolean {
  return (
    message?.role === 'user' &&
    typeof message.content === 'string' &&
    message.content.startsWith(STOP_FEEDBACK)
  );
}
