import type { TextBlock, ToolResultBlock } from '../model/types.js';

/** Most characters of one tool result kept in a conversation and its journal. */
export const MAX_STORED_TOOL_OUTPUT_CHARS = 1_000_000;

function note(dropped: number): string {
  return `\n\n[Tool output cut: ${dropped.toLocaleString('en-US')} more characters were not kept. Ask for a smaller part.]`;
}

/**
 * Cuts a tool result to `maxChars` characters of text (whole blocks first, then the block that
 * crosses the limit), with a note saying how much was dropped. Results within the limit are
 * returned unchanged. Non-string text is stringified, so whatever a tool returns can be journaled.
 */
export function capToolOutput(
  result: ToolResultBlock,
  maxChars: number = MAX_STORED_TOOL_OUTPUT_CHARS,
): ToolResultBlock {
  const { content } = result;
  if (typeof content === 'string') {
    if (content.length <= maxChars) return result;
    return { ...result, content: content.slice(0, maxChars) + note(content.length - maxChars) };
  }
  if (!Array.isArray(content)) return { ...result, content: String(content) };
  let total = 0;
  for (const block of content) total += typeof block?.text === 'string' ? block.text.length : 0;
  const wellFormed = content.every((block) => block?.type === 'text' && typeof block.text === 'string');
  if (total <= maxChars && wellFormed) return result;
  const kept: TextBlock[] = [];
  let left = maxChars;
  for (const block of content) {
    const text = typeof block?.text === 'string' ? block.text : '';
    if (left <= 0) break;
    kept.push({ type: 'text', text: text.length <= left ? text : text.slice(0, left) });
    left -= Math.min(text.length, left);
  }
  const dropped = Math.max(0, total - maxChars);
  if (dropped > 0) kept.push({ type: 'text', text: note(dropped).trimStart() });
  return { ...result, content: kept };
}
