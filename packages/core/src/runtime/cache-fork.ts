import type { ContentBlock, Message, ToolSpec } from '../model/types.js';
import { FORK_SEPARATOR } from './fork-context.js';

/** What a forking child needs of its parent's last request: the prefix it can read from the cache. */
export interface ForkSource {
  model: string;
  system: string;
  /** The tools the parent's requests sent, in their order. */
  tools: readonly ToolSpec[];
  messages: readonly Message[];
}

/**
 * The first request of a child that forks its parent's context so that it reads the parent's
 * cached prefix: the parent's tools, system prompt and conversation exactly as the parent sent
 * them (up to the end of its last user message: the parent's pending reply, with the `task` call
 * that started this child, is not part of it), then one user block with the child's own
 * instructions — its agent's system prompt, the tools it may call, and its task. The tools it may
 * not call stay in the request (removing them would move the prefix); a call to one is refused
 * when it is executed, with an error the model sees (the child's registry is unchanged).
 */
export function cacheFork(
  source: ForkSource,
  child: { agent: string; systemPrompt: string; tools: readonly string[]; prompt: string },
): { system: string; tools: ToolSpec[]; messages: Message[] } | undefined {
  let end = source.messages.length;
  while (end > 0 && source.messages[end - 1]!.role !== 'user') end--;
  if (end === 0) return undefined;
  const messages = source.messages.slice(0, end);
  const allowed = child.tools.length ? child.tools.join(', ') : 'none';
  const instructions = [
    FORK_SEPARATOR,
    `You are now the sub-agent "${child.agent}". The conversation above is context only; the tools listed at the start belong to the parent agent. You may call only these tools: ${allowed}. A call to any other tool is refused.`,
    child.systemPrompt.trim() ? `Your instructions as ${child.agent}:\n${child.systemPrompt.trim()}` : '',
    `Your task:\n${child.prompt}`,
  ]
    .filter(Boolean)
    .join('\n\n');
  const last = messages[end - 1]!;
  const lastBlocks: ContentBlock[] =
    typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...last.content];
  // The instructions join the parent's last user message as one more block: the blocks before it
  // are the parent's cached prefix, unchanged.
  messages[end - 1] = { role: 'user', content: [...lastBlocks, { type: 'text', text: instructions }] };
  return { system: source.system, tools: source.tools.map((tool) => ({ ...tool })), messages };
}
