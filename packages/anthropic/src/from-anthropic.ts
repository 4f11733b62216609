import type {
  ContentBlock as ApiContentBlock,
  Message as ApiMessage,
  StopReason as ApiStopReason,
  Usage as ApiUsage,
} from '@anthropic-ai/sdk/resources/messages';
import { type ContentBlock, ModelError, type ModelResponse, type StopReason, type Usage } from '@troupe/core';

/**
 * A response block in troupe's shape, or undefined for blocks troupe does not model (redacted
 * thinking, server tools and their results). Text citations are dropped; thinking keeps its signature.
 */
export function fromContentBlock(block: ApiContentBlock): ContentBlock | undefined {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'thinking':
      return { type: 'thinking', thinking: block.thinking, signature: block.signature };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    default:
      return undefined;
  }
}

/** The stop reason in troupe's vocabulary; running out of context window counts as `max_tokens`. */
export function fromStopReason(reason: ApiStopReason | null): StopReason | undefined {
  if (reason === null) return undefined;
  return reason === 'model_context_window_exceeded' ? 'max_tokens' : reason;
}

/**
 * Token usage: `input` is every input token the call processed — the API's uncached
 * `input_tokens` plus prompt-cache reads and writes — so token budgets count what the model read;
 * `cacheRead` and `cacheWrite` say how much of it came from or went to the cache, `cacheWrite1h`
 * how much of the writes went to 1-hour entries.
 */
export function fromUsage(usage: ApiUsage | undefined): Usage {
  // No usage at all: the counts are unknown (NaN), and the runtime estimates them with a warning.
  if (typeof usage !== 'object' || usage === null) return { input: Number.NaN, output: Number.NaN };
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  const result: Usage = {
    input: usage.input_tokens + cacheRead + cacheWrite,
    output: usage.output_tokens,
    cacheRead,
    cacheWrite,
  };
  // The split by lifetime, when the API reports it: 1-hour writes cost 2x input, 5-minute ones 1.25x.
  const hour = usage.cache_creation?.ephemeral_1h_input_tokens;
  if (typeof hour === 'number' && hour > 0) result.cacheWrite1h = Math.min(hour, cacheWrite);
  return result;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value !== 'object') return typeof value;
  const content = (value as { content?: unknown }).content;
  return `content ${content === null ? 'null' : typeof content}`;
}

/** A complete API message as a troupe `ModelResponse`, with the model id the API reports. */
export function fromMessage(message: ApiMessage): ModelResponse {
  if (typeof message !== 'object' || message === null || !Array.isArray(message.content)) {
    throw new ModelError(
      'MODEL_RESPONSE_INVALID',
      `Malformed Messages API response: expected a message with a content array, got ${describe(message)}.`,
    );
  }
  const content: ContentBlock[] = [];
  for (const [index, block] of message.content.entries()) {
    if (typeof block !== 'object' || block === null)
      throw new ModelError(
        'MODEL_RESPONSE_INVALID',
        `Malformed Messages API response: content[${index}] is ${describe(block)}, not a block.`,
      );
    const converted = fromContentBlock(block);
    if (converted) content.push(converted);
  }
  const response: ModelResponse = { content, usage: fromUsage(message.usage), model: message.model };
  const stopReason = fromStopReason(message.stop_reason);
  if (stopReason) response.stopReason = stopReason;
  return response;
}
