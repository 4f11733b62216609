import type { Message } from '@troupe/core';
import { afterEach, describe, expect, it } from 'vitest';
import { lastUserText, systemOf, textStep, toolNamesOf, toolResultsOf, toolStep } from './script-helpers.js';
import { type FakeAnthropicModel, startFakeAnthropicModel } from './with-model.js';

let fake: FakeAnthropicModel | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('startFakeAnthropicModel', () => {
  it('drives a tool loop through the real adapter, scripted from what the model was sent', async () => {
    fake = await startFakeAnthropicModel({
      handler: (request) => {
        const results = toolResultsOf(request);
        if (results.length === 0)
          return toolStep('echo', { text: lastUserText(request) }, { text: 'Echoing.' });
        return textStep(`echo said: ${results[0]?.content} (error: ${results[0]?.isError})`);
      },
    });
    const tools = [{ name: 'echo', description: 'Echo', input_schema: { type: 'object' } }];
    const messages: Message[] = [{ role: 'user', content: 'ping' }];
    const signal = AbortSignal.timeout(10_000);
    const first = await fake.model.generate(
      { model: 'haiku', system: 'Be brief.', messages, tools, maxTokens: 256 },
      signal,
    );
    const call = first.content.find((block) => block.type === 'tool_use');
    expect(call).toMatchObject({ name: 'echo', input: { text: 'ping' } });
    messages.push(
      { role: 'assistant', content: first.content },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: call?.type === 'tool_use' ? call.id : '', content: 'ping' },
        ],
      },
    );
    const second = await fake.model.generate(
      { model: 'haiku', system: 'Be brief.', messages, tools, maxTokens: 256 },
      signal,
    );
    expect(second.content).toEqual([{ type: 'text', text: 'echo said: ping (error: false)' }]);
    expect(second.model).toBe('claude-haiku-5-5');
    const [recorded] = fake.server.requests;
    expect(recorded && [systemOf(recorded), toolNamesOf(recorded)]).toEqual(['Be brief.', ['echo']]);
  });

  it('records backoff delays instead of waiting', async () => {
    fake = await startFakeAnthropicModel({ script: [{ fault: 'overloaded' }, textStep('ok')] });
    await fake.model.generate(
      { model: 'sonnet', system: '', messages: [{ role: 'user', content: 'x' }], tools: [], maxTokens: 10 },
      AbortSignal.timeout(10_000),
    );
    expect(fake.delays).toEqual([500]);
  });
});
