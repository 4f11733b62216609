import type { SessionMessage } from '@troupe/core';
import type { Colors } from './colors.js';

/** How a main-agent reply is printed: its text, or why the turn stopped. */
export function replyLines(message: SessionMessage, colors: Colors): string[] {
  const result = message.result;
  const text = message.text.trim();
  if (!result || result.status === 'completed') return ['', text || colors.dim('(no reply)'), ''];
  if (result.status === 'cancelled') return [colors.dim('(The turn was interrupted.)')];
  const why = result.error?.message ?? result.terminateReason;
  const lines = [colors.red(`The main agent stopped (${result.terminateReason}): ${why}`)];
  if (text) lines.push('', text, '');
  return lines;
}
