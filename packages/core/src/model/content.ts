import type { ContentBlock, ToolUseBlock, Usage } from './types.js';

/** The text of a message or content list, text blocks joined by newlines. */
export function textOf(content: string | readonly ContentBlock[]): string {
  if (typeof content === 'string') return content;
  let text = '';
  for (const block of content) {
    if (block.type === 'text') text = text ? `${text}\n${block.text}` : block.text;
  }
  return text;
}

/** The tool calls in a content list, in order. */
export function toolUsesOf(content: readonly ContentBlock[]): ToolUseBlock[] {
  const uses: ToolUseBlock[] = [];
  for (const block of content) if (block.type === 'tool_use') uses.push(block);
  return uses;
}

/** Sum of two usages; cache fields are kept only when either side has them. */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = { input: a.input + b.input, output: a.output + b.output };
  if (a.cacheRead !== undefined || b.cacheRead !== undefined)
    sum.cacheRead = (a.cacheRead ?? 0) + (b.cacheRead ?? 0);
  if (a.cacheWrite !== undefined || b.cacheWrite !== undefined)
    sum.cacheWrite = (a.cacheWrite ?? 0) + (b.cacheWrite ?? 0);
  if (a.cacheWrite1h !== undefined || b.cacheWrite1h !== undefined)
    sum.cacheWrite1h = (a.cacheWrite1h ?? 0) + (b.cacheWrite1h ?? 0);
  return sum;
}
