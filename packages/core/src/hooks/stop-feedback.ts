import type { Message } from '../model/types.js';

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
