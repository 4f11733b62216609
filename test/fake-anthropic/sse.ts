import type { ApiContentBlock, ApiMessage } from './message.js';

/** One server-sent event of the Messages stream. */
export interface StreamEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Encodes an event the way the API does: an `event:` line, a `data:` line and a blank line. */
export function formatEvent({ event, data }: StreamEvent): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function chunks(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let start = 0; start < text.length; start += size) parts.push(text.slice(start, start + size));
  return parts;
}

function blockEvents(block: ApiContentBlock, index: number, chunkSize: number): StreamEvent[] {
  const start = (content_block: Record<string, unknown>): StreamEvent => ({
    event: 'content_block_start',
    data: { type: 'content_block_start', index, content_block },
  });
  const delta = (value: Record<string, unknown>): StreamEvent => ({
    event: 'content_block_delta',
    data: { type: 'content_block_delta', index, delta: value },
  });
  const events: StreamEvent[] = [];
  switch (block.type) {
    case 'text':
      events.push(start({ type: 'text', text: '', citations: null }));
      for (const text of chunks(block.text, chunkSize)) events.push(delta({ type: 'text_delta', text }));
      break;
    case 'thinking':
      events.push(start({ type: 'thinking', thinking: '', signature: '' }));
      for (const thinking of chunks(block.thinking, chunkSize))
        events.push(delta({ type: 'thinking_delta', thinking }));
      events.push(delta({ type: 'signature_delta', signature: block.signature }));
      break;
    case 'redacted_thinking':
      events.push(start({ ...block }));
      break;
    case 'tool_use':
      events.push(start({ type: 'tool_use', id: block.id, name: block.name, input: {} }));
      events.push(delta({ type: 'input_json_delta', partial_json: '' }));
      for (const partial_json of chunks(JSON.stringify(block.input), chunkSize))
        events.push(delta({ type: 'input_json_delta', partial_json }));
      break;
  }
  events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  return events;
}

/**
 * The full event sequence for a message, as the API streams it: `message_start` (with input usage),
 * each block's start / deltas / stop (a `ping` after the first start), `message_delta` (stop reason,
 * output usage) and `message_stop`.
 */
export function messageEvents(message: ApiMessage, chunkSize: number): StreamEvent[] {
  const events: StreamEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          ...message,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...message.usage, output_tokens: 1 },
        },
      },
    },
  ];
  message.content.forEach((block, index) => {
    const blockStream = blockEvents(block, index, chunkSize);
    events.push(...blockStream.slice(0, 1));
    if (index === 0) events.push({ event: 'ping', data: { type: 'ping' } });
    events.push(...blockStream.slice(1));
  });
  events.push(
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: message.stop_reason, stop_sequence: null },
        usage: {
          input_tokens: message.usage.input_tokens,
          cache_creation_input_tokens: message.usage.cache_creation_input_tokens,
          cache_read_input_tokens: message.usage.cache_read_input_tokens,
          output_tokens: message.usage.output_tokens,
        },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  );
  return events;
}

/** An `event: error` as the API sends it mid-stream. */
export function errorEvent(type: string, message: string): StreamEvent {
  return { event: 'error', data: { type: 'error', error: { type, message } } };
}
