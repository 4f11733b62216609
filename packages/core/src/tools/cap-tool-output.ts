import { imagePlaceholder, isImageBlock } from '../model/tool-result-content.js';
import type { ToolResultBlock, ToolResultContent } from '../model/types.js';

/** Most characters of one tool result kept in a conversation and its journal (images count their data). */
export const MAX_STORED_TOOL_OUTPUT_CHARS = 1_000_000;

/** Most blocks of one tool result kept (a tool may return a sparse array of 2³² − 1). */
export const MAX_TOOL_OUTPUT_BLOCKS = 10_000;

function note(dropped: number): string {
  return `\n\n[Tool output cut: ${dropped.toLocaleString('en-US')} more characters were not kept. Ask for a smaller part.]`;
}

/**
 * A copy of `text` that holds no reference to a larger string: V8 keeps the whole of a string
 * alive behind a slice of it, so a 50 MB output cut to 1 MB would otherwise stay 50 MB in memory.
 */
function detached(text: string): string {
  return ` ${text}`.slice(1);
}

/**
 * One block of a tool's output, rebuilt from its known fields (each read once: a getter may answer
 * differently twice): a text block, a well-formed image, or `undefined` for anything else.
 */
function readBlock(block: unknown): ToolResultContent | undefined {
  if (typeof block !== 'object' || block === null) return undefined;
  const { type } = block as { type?: unknown };
  if (type === 'text') {
    const { text } = block as { text?: unknown };
    return typeof text === 'string' ? { type: 'text', text } : undefined;
  }
  if (type !== 'image') return undefined;
  const { source } = block as { source?: unknown };
  if (typeof source !== 'object' || source === null) return undefined;
  const { type: kind, media_type, data } = source as Record<string, unknown>;
  const image = { type: 'image', source: { type: kind, media_type, data } };
  return isImageBlock(image) ? image : undefined;
}

/**
 * Cuts a tool result to `maxChars` characters (whole blocks first, then the text block that
 * crosses the limit; an image that does not fit whole becomes a one-line note), with a note saying
 * how much was dropped. Blocks are rebuilt from their known fields, so nothing else a tool put in
 * them (a cycle, a BigInt) reaches the journal; a malformed block becomes empty text. Anything
 * else a tool returns is made text. May throw when the output's getters or proxy traps throw.
 */
export function capToolOutput(
  result: ToolResultBlock,
  maxChars: number = MAX_STORED_TOOL_OUTPUT_CHARS,
): ToolResultBlock {
  const { content } = result;
  if (typeof content === 'string') {
    if (content.length <= maxChars) return result;
    return { ...result, content: detached(content.slice(0, maxChars) + note(content.length - maxChars)) };
  }
  if (!Array.isArray(content)) return { ...result, content: String(content) };
  const blocks: ToolResultContent[] = [];
  const count = Math.min(content.length, MAX_TOOL_OUTPUT_BLOCKS);
  for (let index = 0; index < count; index++)
    blocks.push(readBlock(content[index]) ?? { type: 'text', text: '' });
  if (content.length > count) {
    const more = (content.length - count).toLocaleString('en-US');
    blocks.push({ type: 'text', text: `[Tool output cut: ${more} more blocks were not kept.]` });
  }
  const total = blocks.reduce(
    (sum, block) => sum + (isImageBlock(block) ? block.source.data.length : block.text.length),
    0,
  );
  if (total <= maxChars) return { ...result, content: blocks };
  const kept: ToolResultContent[] = [];
  let left = maxChars;
  for (const block of blocks) {
    if (block.type === 'image') {
      const size = block.source.data.length;
      if (size <= left) {
        kept.push(block);
        left -= size;
      } else kept.push({ type: 'text', text: `${imagePlaceholder(block)} not kept: over the size limit` });
      continue;
    }
    if (left <= 0) continue;
    const text = block.text;
    kept.push({ type: 'text', text: text.length <= left ? text : detached(text.slice(0, left)) });
    left -= Math.min(text.length, left);
  }
  const dropped = total - (maxChars - left);
  if (dropped > 0) kept.push({ type: 'text', text: note(dropped).trimStart() });
  return { ...result, content: kept };
}
