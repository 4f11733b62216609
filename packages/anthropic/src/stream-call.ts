import type Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';
import type { ModelDelta, ModelResponse } from '@troupe/core';
import { raceAbort } from '@troupe/core/internal';

import { fromMessage } from './from-anthropic.js';

/**
 * One streamed call: sends `params` with `messages.stream`, forwards text, thinking and tool-call
 * starts to `onDelta` as they arrive, and resolves with the final message. `signal` aborts the HTTP
 * request and rejects at once. A throwing `onDelta` is ignored: display code must not fail the call.
 */
export async function streamOnce(
  client: Anthropic,
  params: MessageCreateParamsBase,
  signal: AbortSignal,
  onDelta: ((delta: ModelDelta) => void) | undefined,
): Promise<ModelResponse> {
  const stream = client.messages.stream(params, { signal, maxRetries: 0 });
  if (onDelta) {
    const emit = (delta: ModelDelta) => {
      try {
        onDelta(delta);
      } catch {
        // Progress display is best effort; the model call goes on.
      }
    };
    stream.on('text', (text) => emit({ type: 'text', text }));
    stream.on('thinking', (thinking) => emit({ type: 'thinking', thinking }));
    stream.on('streamEvent', (event) => {
      if (event.type === 'content_block_start' && event.content_block.type === 'tool_use')
        emit({ type: 'tool_use', id: event.content_block.id, name: event.content_block.name });
    });
  }
  const message = await raceAbort(stream.finalMessage(), signal);
  return fromMessage(message);
}
