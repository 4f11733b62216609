import { imagePlaceholder, isImageBlock } from '../model/tool-result-content.js';
import type { ToolResultBlock, ToolResultContent } from '../model/types.js';

/** Most characters of one tool result kept in a conversation and its journal (images count their data). */
export const MAX_STORED_TOOL_OUTPUT_CHARS = 1_000_000;

function note(dropped: number): string {
  return `\n\n[Tool output cut: ${dropped.toLocaleString('en-US')} more characters were not kept. Ask for a smaller part.]`;
}

/** The size a block counts for: its text, or an image's base64 data. */
function sizeOf(block: unknown): number {
  if (isImageBlock(block)) return block.source.data.length;
  const text = (block as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text.length : 0;
}

function wellFormed(block: unknown): boolean {
  return (
    isImageBlock(block) ||
    ((block as { type?: unknown })?.type === 'text' && typeof (block as { text?: unknown }).text === 'string')
  );
}

/**
 * Cuts a tool result to `maxChars` characters (whole blocks first, then the text block that
 * crosses the limit; an image that does not fit whole becomes a one-line note), with a note saying
 * how much was dropped. Results within the limit are returned unchanged. Anything else a tool
 * returns is made text, so whatever it is can be journaled.
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
  const total = content.reduce((sum, block) => sum + sizeOf(block), 0);
  if (total <= maxChars && content.every(wellFormed)) return result;
  const kept: ToolResultContent[] = [];
  let left = maxChars;
  for (const block of content) {
    if (isImageBlock(block)) {
      const size = block.source.data.length;
      if (size <= left) {
        kept.push(block);
        left -= size;
      } else kept.push({ type: 'text', text: `${imagePlaceholder(block)} not kept: over the size limit` });
      continue;
    }
    if (left <= 0) continue;
    const text = typeof block?.text === 'string' ? block.text : '';
    kept.push({ type: 'text', text: text.length <= left ? text : text.slice(0, left) });
    left -= Math.min(text.length, left);
  }
  const dropped = total - (maxChars - left);
  if (dropped > 0) kept.push({ type: 'text', text: note(dropped).trimStart() });
  return { ...result, content: kept };
}
