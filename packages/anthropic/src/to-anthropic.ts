import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsBase,
  MessageParam,
  TextBlockParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import type { ContentBlock, Message, ModelRequest, ToolSpec } from '@troupe/core';
import type { CacheOptions } from './options.js';

type CacheControl = { type: 'ephemeral'; ttl?: '5m' | '1h' };

const EPHEMERAL: CacheControl = { type: 'ephemeral' };
const ONE_HOUR: CacheControl = { type: 'ephemeral', ttl: '1h' };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One troupe block in the API's shape, or undefined for blocks the API would reject: empty text,
 * and thinking without a signature (the API only accepts thinking it signed).
 */
export function toBlockParam(block: ContentBlock): ContentBlockParam | undefined {
  switch (block.type) {
    case 'text':
      return block.text === '' ? undefined : { type: 'text', text: block.text };
    case 'thinking':
      return block.signature
        ? { type: 'thinking', thinking: block.thinking, signature: block.signature }
        : undefined;
    case 'tool_use':
      return {
        type: 'tool_use',
        id: block.id,
        name: block.name,
        input: isPlainObject(block.input) ? block.input : {},
      };
    case 'tool_result': {
      const param: ContentBlockParam = { type: 'tool_result', tool_use_id: block.tool_use_id };
      if (typeof block.content === 'string') {
        if (block.content !== '') param.content = block.content;
      } else {
        const parts: (TextBlockParam | ImageBlockParam)[] = [];
        for (const inner of block.content) {
          if (inner.type === 'image') parts.push({ type: 'image', source: { ...inner.source } });
          else if (inner.text !== '') parts.push({ type: 'text', text: inner.text });
        }
        if (parts.length > 0) param.content = parts;
      }
      if (block.is_error !== undefined) param.is_error = block.is_error;
      return param;
    }
  }
}

function blocksOf(message: Message): ContentBlockParam[] {
  if (typeof message.content === 'string')
    return message.content === '' ? [] : [{ type: 'text', text: message.content }];
  const blocks: ContentBlockParam[] = [];
  for (const block of message.content) {
    const param = toBlockParam(block);
    if (param) blocks.push(param);
  }
  return blocks;
}

/**
 * The conversation in the API's shape. Normalises what the API would reject: empty messages are
 * dropped, consecutive messages of one role are merged (the API treats them as one turn anyway),
 * tool results are moved to the front of their user message, and a final assistant prefill loses
 * trailing whitespace.
 */
export function toMessageParams(messages: readonly Message[]): MessageParam[] {
  const merged: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  for (const message of messages) {
    const blocks = blocksOf(message);
    if (blocks.length === 0) continue;
    const last = merged.at(-1);
    if (last && last.role === message.role) last.content.push(...blocks);
    else merged.push({ role: message.role, content: blocks });
  }
  for (const message of merged) {
    if (message.role !== 'user') continue;
    const results = message.content.filter((block) => block.type === 'tool_result');
    if (results.length > 0 && results.length < message.content.length)
      message.content = [...results, ...message.content.filter((block) => block.type !== 'tool_result')];
  }
  const final = merged.at(-1);
  const tail = final?.role === 'assistant' ? final.content.at(-1) : undefined;
  if (final && tail?.type === 'text') {
    const text = tail.text.trimEnd();
    if (text === '') final.content.pop();
    else tail.text = text;
    if (final.content.length === 0) merged.pop();
  }
  return merged;
}

/** Tool definitions in the API's shape; an `input_schema` without a `type` gets `type: 'object'`. */
export function toToolParams(
  tools: readonly ToolSpec[],
  cache: boolean,
  control: CacheControl = EPHEMERAL,
): Tool[] {
  const params = tools.map(
    (tool): Tool => ({
      name: tool.name,
      description: tool.description,
      input_schema: { type: 'object', ...tool.input_schema } as Tool.InputSchema,
    }),
  );
  const last = params.at(-1);
  if (cache && last) last.cache_control = { ...control };
  return params;
}

/** The system prompt as one text block (cacheable), or undefined when empty. */
export function toSystemParam(
  system: string,
  cache: boolean,
  control: CacheControl = EPHEMERAL,
): TextBlockParam[] | undefined {
  if (system.trim() === '') return undefined;
  const block: TextBlockParam = { type: 'text', text: system };
  if (cache) block.cache_control = { ...control };
  return [block];
}

function markEndOf(message: MessageParam | undefined, control: CacheControl): void {
  const content = message?.content;
  const block = Array.isArray(content) ? content.at(-1) : undefined;
  if (block && (block.type === 'text' || block.type === 'tool_result' || block.type === 'tool_use'))
    block.cache_control = { ...control };
}

/**
 * The conversation's breakpoints. One on the last block makes the next turn read the whole
 * history from the cache. A second one stays where the previous request's conversation ended
 * (the user message before the last assistant turn): the API looks back at most 20 blocks from a
 * breakpoint, so after a turn that added more (12 parallel reads are 24 blocks) the last one alone
 * would miss the previous prefix and write the conversation again. With the tools and system
 * breakpoints that makes four, the API's maximum.
 */
function markConversation(messages: MessageParam[], control: CacheControl): void {
  markEndOf(messages.at(-1), control);
  const previousEnd = messages.length - 3;
  if (previousEnd >= 0 && messages.at(-1)?.role === 'user' && messages.at(-2)?.role === 'assistant')
    markEndOf(messages[previousEnd], control);
}

/** What `toRequestParams` needs besides the request. */
export interface RequestSettings {
  /** The resolved model id. */
  model: string;
  /** Used when `request.maxTokens` is not a positive integer. */
  defaultMaxTokens: number;
  cache: Required<CacheOptions>;
  /** Thinking budget in tokens, or undefined for no extended thinking. */
  thinkingBudget: number | undefined;
}

/**
 * The Messages API body for a troupe request (without `stream`, which the SDK's `stream()` sets).
 * With thinking on, `max_tokens` is raised above the budget when needed, as the API requires.
 */
export function toRequestParams(request: ModelRequest, settings: RequestSettings): MessageCreateParamsBase {
  const requested =
    Number.isInteger(request.maxTokens) && request.maxTokens > 0
      ? request.maxTokens
      : settings.defaultMaxTokens;
  // Every breakpoint gets the request's lifetime: the API wants 1-hour entries before 5-minute ones,
  // and a conversation that waits on background work needs all of its prefix to outlive 5 minutes.
  const control = request.cacheLifetime === '1h' ? ONE_HOUR : EPHEMERAL;
  const messages = toMessageParams(request.messages);
  if (settings.cache.messages) markConversation(messages, control);
  const params: MessageCreateParamsBase = { model: settings.model, max_tokens: requested, messages };
  const system = toSystemParam(request.system, settings.cache.system, control);
  if (system) params.system = system;
  if (request.tools.length > 0) params.tools = toToolParams(request.tools, settings.cache.tools, control);
  if (settings.thinkingBudget !== undefined) {
    params.thinking = { type: 'enabled', budget_tokens: settings.thinkingBudget };
    if (requested <= settings.thinkingBudget) params.max_tokens = settings.thinkingBudget + requested;
  }
  return params;
}
