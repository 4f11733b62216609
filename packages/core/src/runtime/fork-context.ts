import { toolResultText } from '../model/tool-result-content.js';
import type { ContentBlock, Message } from '../model/types.js';

/** Marks where the parent's conversation ends and the child's task begins. */
export const FORK_SEPARATOR =
  '--- End of the parent conversation (context only). Your task, which you must now carry out, follows. ---';

const SUMMARY_LIMIT = 300;

function clip(text: string, limit = SUMMARY_LIMIT): string {
  return text.length > limit ? `${text.slice(0, limit)}… [${text.length - limit} more characters]` : text;
}

/**
 * Prepares a parent's conversation for a child that forks it:
 * - a tool call whose tool the child lacks becomes a short text summary, and so does its result;
 * - a tool call without a result (orphan, such as the pending `task` call itself) is dropped;
 * - thinking blocks are dropped (they belong to the parent's model turn);
 * - messages are merged so roles alternate, starting with the user;
 * - a separator marks where the parent context ends, followed by the child's prompt.
 */
export function forkContext(
  parent: readonly Message[],
  childHasTool: (name: string) => boolean,
  prompt: string,
): Message[] {
  const answered = new Set<string>();
  for (const message of parent) {
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    for (const block of message.content) if (block.type === 'tool_result') answered.add(block.tool_use_id);
  }
  const summarised = new Map<string, string>();
  const out: Message[] = [];
  const push = (role: Message['role'], blocks: ContentBlock[]) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content = [...(last.content as ContentBlock[]), ...blocks];
    else out.push({ role, content: blocks });
  };
  for (const message of parent) {
    const blocks: ContentBlock[] =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    const kept: ContentBlock[] = [];
    for (const block of blocks) {
      if (block.type === 'thinking') continue;
      if (block.type === 'tool_use') {
        if (!answered.has(block.id)) continue;
        if (childHasTool(block.name)) kept.push(block);
        else {
          summarised.set(block.id, block.name);
          kept.push({
            type: 'text',
            text: `[Called tool ${block.name} with ${clip(JSON.stringify(block.input ?? {}))}]`,
          });
        }
      } else if (block.type === 'tool_result') {
        const name = summarised.get(block.tool_use_id);
        if (name !== undefined) {
          kept.push({
            type: 'text',
            text: `[${name} ${block.is_error ? 'failed' : 'returned'}: ${clip(toolResultText(block.content))}]`,
          });
        } else if (answered.has(block.tool_use_id)) kept.push(block);
      } else if (block.type === 'text' && block.text.trim() === '') {
      } else kept.push(block);
    }
    push(message.role, kept);
  }
  // Tool results must lead their user message; summaries may have been merged in front of them.
  for (const message of out) {
    if (message.role !== 'user') continue;
    const blocks = message.content as ContentBlock[];
    const results = blocks.filter((block) => block.type === 'tool_result');
    if (results.length && results.length !== blocks.length)
      message.content = [...results, ...blocks.filter((block) => block.type !== 'tool_result')];
  }
  if (out[0]?.role === 'assistant')
    out.unshift({ role: 'user', content: [{ type: 'text', text: '(The conversation so far.)' }] });
  push('user', [{ type: 'text', text: `${FORK_SEPARATOR}\n\n${prompt}` }]);
  return out;
}
