import type { ToolResultBlock } from '../../model/types.js';

/** `result` with `texts` as text blocks after its own content (unchanged when there are none). */
export function withTexts(result: ToolResultBlock, texts: readonly string[]): ToolResultBlock {
  if (!texts.length) return result;
  const content =
    typeof result.content === 'string' ? [{ type: 'text' as const, text: result.content }] : result.content;
  return { ...result, content: [...content, ...texts.map((text) => ({ type: 'text' as const, text }))] };
}
