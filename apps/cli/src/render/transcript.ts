import { type ContentBlock, type Message, toolResultText } from '@troupe/core';
import { inputLines } from './approval-text.js';
import type { Colors } from './colors.js';
import { indent } from './text.js';

/** Options of {@link transcriptLines}. */
export interface TranscriptOptions {
  /** Lines of a tool result shown before it is cut. Default 12. */
  resultLines?: number;
}

/**
 * A task's conversation for people: the prompt, the agent's text, each tool call with its input,
 * each result (cut to a few lines, errors marked), and thinking dimmed.
 */
export function transcriptLines(
  messages: readonly Message[],
  colors: Colors,
  options: TranscriptOptions = {},
): string[] {
  const limit = options.resultLines ?? 12;
  const lines: string[] = [];
  for (const message of messages) {
    const blocks: ContentBlock[] =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    for (const block of blocks) {
      if (block.type === 'text') {
        if (!block.text.trim()) continue;
        const who = message.role === 'user' ? colors.bold('user') : colors.bold('agent');
        lines.push(`${who}:`, indent(block.text.trimEnd(), '  '));
      } else if (block.type === 'thinking') {
        lines.push(colors.dim(`thinking: ${block.thinking.trim().split('\n').join(' ').slice(0, 300)}`));
      } else if (block.type === 'tool_use') {
        lines.push(`${colors.cyan('→')} ${colors.bold(block.name)}`);
        lines.push(...inputLines(block.input).map((line) => `    ${line}`));
      } else {
        const text = toolResultText(block.content);
        const all = text.replace(/\s+$/, '').split('\n');
        const shown = all.slice(0, limit);
        const head = block.is_error ? colors.red('← error') : colors.green('←');
        lines.push(`${head} ${colors.dim(`(${all.length} line${all.length === 1 ? '' : 's'})`)}`);
        lines.push(...shown.map((line) => `    ${line}`));
        if (all.length > shown.length)
          lines.push(colors.dim(`    … ${all.length - shown.length} more lines`));
      }
    }
  }
  return lines;
}
