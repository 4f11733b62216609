import { type CacheUsage, estimateTokens } from './prompt-cache.js';
import type { ApiUsage, FakeContentBlock, FakeReply, FakeStopReason } from './types.js';

/** A response content block in the API's shape (tool_use with its id filled in). */
export type ApiContentBlock =
  | { type: 'text'; text: string; citations: null }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** A Messages API `Message` object, as the fake sends it. */
export interface ApiMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: ApiContentBlock[];
  stop_reason: FakeStopReason;
  stop_sequence: null;
  usage: ApiUsage;
}

function toApiBlock(block: FakeContentBlock, messageNumber: number, index: number): ApiContentBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text, citations: null };
    case 'thinking':
      return {
        type: 'thinking',
        thinking: block.thinking,
        signature: block.signature ?? `sig_fake_${messageNumber}_${index}`,
      };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    case 'tool_use':
      return {
        type: 'tool_use',
        id: block.id ?? `toolu_fake_${messageNumber}_${index}`,
        name: block.name,
        input: block.input,
      };
  }
}

/**
 * Builds the `Message` for a scripted reply. `number` makes ids deterministic; `cache` is the
 * simulated cache split of the request's input, used for counts the reply does not force.
 */
export function buildMessage(
  reply: FakeReply,
  requestModel: string,
  number: number,
  cache: CacheUsage,
): ApiMessage {
  const content = reply.content.map((block, index) => toApiBlock(block, number, index));
  const usage = reply.usage ?? {};
  const forced =
    usage.cacheRead !== undefined || usage.cacheWrite !== undefined || usage.cacheWrite1h !== undefined;
  const cacheRead = usage.cacheRead ?? (forced ? 0 : cache.cacheRead);
  const cacheWrite1h = usage.cacheWrite1h ?? (forced ? 0 : cache.cacheWrite1h);
  const cacheWrite5m = forced ? Math.max(0, (usage.cacheWrite ?? 0) - cacheWrite1h) : cache.cacheWrite5m;
  const output = usage.output ?? Math.max(1, estimateTokens(JSON.stringify(content)));
  return {
    id: `msg_fake_${String(number).padStart(4, '0')}`,
    type: 'message',
    role: 'assistant',
    model: reply.model ?? requestModel,
    content,
    stop_reason:
      reply.stopReason ?? (content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: {
      input_tokens: usage.input ?? cache.input,
      output_tokens: output,
      cache_creation_input_tokens: cacheWrite5m + cacheWrite1h,
      cache_read_input_tokens: cacheRead,
      cache_creation: { ephemeral_5m_input_tokens: cacheWrite5m, ephemeral_1h_input_tokens: cacheWrite1h },
      service_tier: 'standard',
    },
  };
}
