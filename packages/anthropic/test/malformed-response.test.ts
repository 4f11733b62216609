import type { Message as ApiMessage } from '@anthropic-ai/sdk/resources/messages';
import { ModelError } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { fromMessage } from '../src/index.js';

// Issue #14, item 2: a malformed Messages API response is a clear ModelError at the adapter
// boundary (an ERROR of that task), never a TypeError; a missing usage is left for the runtime to
// estimate.
const base = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-test',
  stop_reason: 'end_turn',
};

describe('malformed Messages API responses', () => {
  it.each([
    ['content null', { ...base, content: null, usage: { input_tokens: 1, output_tokens: 1 } }],
    ['content missing', { ...base, usage: { input_tokens: 1, output_tokens: 1 } }],
    ['the message itself undefined', undefined],
    ['a block that is null', { ...base, content: [null], usage: { input_tokens: 1, output_tokens: 1 } }],
  ])('%s is a MODEL_RESPONSE_INVALID ModelError', (_name, message) => {
    let thrown: unknown;
    try {
      fromMessage(message as unknown as ApiMessage);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ModelError);
    expect((thrown as ModelError).code).toBe('MODEL_RESPONSE_INVALID');
  });

  it('a response without usage converts, with counts marked unknown (NaN) for the runtime to estimate', () => {
    const response = fromMessage({
      ...base,
      content: [{ type: 'text', text: 'hi' }],
    } as unknown as ApiMessage);
    expect(response.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(Number.isNaN(response.usage.input)).toBe(true);
    expect(Number.isNaN(response.usage.output)).toBe(true);
  });
});
