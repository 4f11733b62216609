import type { SessionMessage } from '@troupe/core';
import type { Colors } from './colors.js';

/**
 * How a main-agent reply is printed: its text, or why the turn stopped. With `textShown` (the text
 * was printed as it streamed) only what the stream did not show is added.
 */
export function replyLines(
  message: SessionMessage,
  colors: Colors,
  options: { textShown?: boolean } = {},
): string[] {
  const result = message.result;
  const text = options.textShown ? '' : message.text.trim();
  if (!result || result.status === 'completed') {
    if (options.textShown) return [''];
    return ['', text || colors.dim('(no reply)'), ''];
  }
  if (result.status === 'cancelled') return [colors.dim('(The turn was interrupted.)')];
  const why = result.error?.message ?? result.terminateReason;
  const lines = [colors.red(`The main agent stopped (${result.terminateReason}): ${why}`)];
  if (text) lines.push('', text, '');
  return lines;
}
