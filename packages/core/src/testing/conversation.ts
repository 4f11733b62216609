// Reading a model request's conversation, for scripted models that act on what it holds.
import type { ModelRequest } from '../model/types.js';

/** One tool call made in a conversation, with the result it got. */
export interface SeenCall {
  name: string;
  input: Record<string, unknown>;
  /** The result's text ('' while it has none). */
  result: string;
  isError: boolean;
}

/** The team member a request is for (its first message introduces it: `You are "name"`), or `unknown`. */
export function memberOf(request: ModelRequest): string {
  const first = request.messages[0]?.content;
  const text =
    typeof first === 'string'
      ? first
      : first?.map((block) => (block.type === 'text' ? block.text : '')).join('');
  return /You are "([a-z0-9-]+)"/.exec(text ?? '')?.[1] ?? 'unknown';
}

/** Every tool call of the conversation with its result, in order. */
export function callsOf(request: ModelRequest): SeenCall[] {
  const results = new Map<string, { text: string; isError: boolean }>();
  for (const message of request.messages)
    if (message.role === 'user' && typeof message.content !== 'string')
      for (const block of message.content)
        if (block.type === 'tool_result')
          results.set(block.tool_use_id, {
            text:
              typeof block.content === 'string'
                ? block.content
                : block.content.map((part) => ('text' in part ? part.text : '')).join(''),
            isError: block.is_error === true,
          });
  const calls: SeenCall[] = [];
  for (const message of request.messages)
    if (message.role === 'assistant' && typeof message.content !== 'string')
      for (const block of message.content)
        if (block.type === 'tool_use') {
          const result = results.get(block.id);
          calls.push({
            name: block.name,
            input: block.input as Record<string, unknown>,
            result: result?.text ?? '',
            isError: result?.isError ?? false,
          });
        }
  return calls;
}

/** The text of every user message (what a member received), one message a line. */
export function receivedText(request: ModelRequest): string {
  return request.messages
    .filter((message) => message.role === 'user')
    .map((message) =>
      typeof message.content === 'string'
        ? message.content
        : message.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n'),
    )
    .join('\n');
}
