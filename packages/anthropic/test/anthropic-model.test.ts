import type { Message, ModelDelta, ToolSpec } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { createAnthropicModel } from '../src/index.js';
import { harness, request, TEST_KEY } from './helpers.js';

const echoTool: ToolSpec = {
  name: 'echo',
  description: 'Echo text back',
  input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};
const readTool: ToolSpec = {
  name: 'read_file',
  description: 'Read a file',
  input_schema: { type: 'object', properties: { path: { type: 'string' } } },
};

describe('createAnthropicModel against the fake API', () => {
  it('streams text to onDelta as it arrives and returns the final message', async () => {
    const { server, model } = await harness({}, { chunkSize: 8 });
    const text = 'Hello from the fake Anthropic API, streamed in pieces.';
    server.enqueue({ content: [{ type: 'text', text }], usage: { input: 20, output: 11 } });
    const deltas: ModelDelta[] = [];
    const response = await model.generate(request(), AbortSignal.timeout(10_000), {
      onDelta: (delta) => deltas.push(delta),
    });
    expect(deltas.length).toBe(Math.ceil(text.length / 8));
    expect(deltas.every((delta) => delta.type === 'text')).toBe(true);
    expect(deltas.map((delta) => (delta.type === 'text' ? delta.text : '')).join('')).toBe(text);
    expect(response.content).toEqual([{ type: 'text', text }]);
    expect(response.stopReason).toBe('end_turn');
    const { input, output, cacheRead = 0, cacheWrite = 0 } = response.usage;
    // The fake simulates the prompt cache: input = 20 uncached tokens + cache reads and writes.
    expect({ uncached: input - cacheRead - cacheWrite, output }).toEqual({ uncached: 20, output: 11 });
    expect(server.requests[0]?.stream).toBe(true);
  });

  it('reports thinking and tool calls as deltas and keeps the thinking signature', async () => {
    const { server, model } = await harness();
    server.enqueue({
      content: [
        { type: 'thinking', thinking: 'The user wants an echo.', signature: 'sig-abc' },
        { type: 'text', text: 'Calling echo.' },
        { type: 'tool_use', id: 'toolu_01', name: 'echo', input: { text: 'hi', nested: { n: [1, 2] } } },
      ],
    });
    const deltas: ModelDelta[] = [];
    const response = await model.generate(request({ tools: [echoTool] }), AbortSignal.timeout(10_000), {
      onDelta: (delta) => deltas.push(delta),
    });
    expect(deltas[0]).toEqual({ type: 'thinking', thinking: 'The user wants a' });
    expect(deltas).toContainEqual({ type: 'tool_use', id: 'toolu_01', name: 'echo' });
    expect(response.content).toEqual([
      { type: 'thinking', thinking: 'The user wants an echo.', signature: 'sig-abc' },
      { type: 'text', text: 'Calling echo.' },
      { type: 'tool_use', id: 'toolu_01', name: 'echo', input: { text: 'hi', nested: { n: [1, 2] } } },
    ]);
    expect(response.stopReason).toBe('tool_use');
  });

  it('ignores an onDelta that throws', async () => {
    const { server, model } = await harness();
    server.enqueue({ content: [{ type: 'text', text: 'still fine' }] });
    const response = await model.generate(request(), AbortSignal.timeout(10_000), {
      onDelta: () => {
        throw new Error('display broke');
      },
    });
    expect(response.content).toEqual([{ type: 'text', text: 'still fine' }]);
  });

  it('returns the model id the API reports, not the alias asked for', async () => {
    const { server, model } = await harness();
    server.enqueue({ content: [{ type: 'text', text: 'ok' }], model: 'claude-sonnet-4-5-20250929' });
    const response = await model.generate(request({ model: 'sonnet' }), AbortSignal.timeout(10_000));
    expect(server.requests[0]?.body.model).toBe('claude-sonnet-5-5');
    expect(response.model).toBe('claude-sonnet-4-5-20250929');
  });

  it('resolves every alias through the configured table', async () => {
    const { server, model } = await harness({
      models: { default: 'claude-main', small: 'claude-tiny', opus: 'claude-big', plan: 'opus' },
    });
    server.setHandler(() => ({ content: [{ type: 'text', text: 'ok' }] }));
    const asked = ['inherit', '', 'small', 'plan', 'haiku', 'sonnet', 'OPUS', 'claude-custom-1'];
    for (const alias of asked) await model.generate(request({ model: alias }), AbortSignal.timeout(10_000));
    expect(server.requests.map((recorded) => recorded.body.model)).toEqual([
      'claude-main',
      'claude-main',
      'claude-tiny',
      'claude-big',
      'claude-haiku-5-5',
      'claude-sonnet-5-5',
      'claude-big',
      'claude-custom-1',
    ]);
  });

  it('maps usage with cache reads and writes the API reports', async () => {
    const { server, model } = await harness();
    server.enqueue({
      content: [{ type: 'text', text: 'ok' }],
      usage: { input: 12, output: 7, cacheRead: 300, cacheWrite: 40 },
    });
    const response = await model.generate(request(), AbortSignal.timeout(10_000));
    // input counts every token read: 12 uncached + 300 from the cache + 40 written to it.
    expect(response.usage).toEqual({ input: 352, output: 7, cacheRead: 300, cacheWrite: 40 });
  });

  it('marks system prompt and tools cacheable, so the next turn reads them from the cache', async () => {
    const { server, model } = await harness();
    server.setHandler(() => ({ content: [{ type: 'text', text: 'Done.' }] }));
    // Over 1,024 tokens, the documented minimum of a cacheable prefix on the default model.
    const system = 'You are a meticulous code reviewer. '.repeat(150);
    const first = request({ system, tools: [echoTool, readTool] });
    const turn1 = await model.generate(first, AbortSignal.timeout(10_000));
    const messages: Message[] = [
      ...first.messages,
      { role: 'assistant', content: turn1.content },
      { role: 'user', content: 'And now say goodbye.' },
    ];
    const turn2 = await model.generate({ ...first, messages }, AbortSignal.timeout(10_000));

    const body = server.requests[0]?.body;
    expect(body.system).toEqual([{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }]);
    expect(body.tools[0].cache_control).toBeUndefined();
    expect(body.tools[1].cache_control).toEqual({ type: 'ephemeral' });
    expect(turn1.usage.cacheRead).toBe(0);
    expect(turn1.usage.cacheWrite).toBeGreaterThan(500);
    // Turn 2 reads everything turn 1 wrote (system, tools, first message) and writes only the new part.
    expect(turn2.usage.cacheRead).toBe(turn1.usage.cacheWrite);
    expect(turn2.usage.cacheWrite).toBeLessThan(50);
  });

  it('sends the key as a bearer credential with a dated anthropic-version', async () => {
    const { server, model } = await harness();
    server.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await model.generate(request(), AbortSignal.timeout(10_000));
    const recorded = server.requests[0];
    expect(recorded?.auth).toBe('bearer');
    expect(recorded?.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL from the injected env', async () => {
    const { server } = await harness();
    server.enqueue({ content: [{ type: 'text', text: 'from env' }] });
    const model = createAnthropicModel({
      env: { ANTHROPIC_API_KEY: TEST_KEY, ANTHROPIC_BASE_URL: server.url },
    });
    const response = await model.generate(request(), AbortSignal.timeout(10_000));
    expect(response.content).toEqual([{ type: 'text', text: 'from env' }]);
  });

  it('sends an authToken as bearer too', async () => {
    const { server } = await harness();
    server.enqueue({ content: [{ type: 'text', text: 'token ok' }] });
    const model = createAnthropicModel({ env: { ANTHROPIC_AUTH_TOKEN: TEST_KEY }, baseURL: server.url });
    await model.generate(request(), AbortSignal.timeout(10_000));
    expect(server.requests[0]?.auth).toBe('bearer');
  });

  it("sends a request's thinking budget (an agent's effort) as the API's thinking parameter", async () => {
    const { server, model } = await harness();
    server.enqueue({ content: [{ type: 'text', text: 'ok' }] }, { content: [{ type: 'text', text: 'ok' }] });
    await model.generate(
      request({ maxTokens: 1024, thinking: { budgetTokens: 4096 } }),
      AbortSignal.timeout(10_000),
    );
    await model.generate(request({ maxTokens: 1024 }), AbortSignal.timeout(10_000));
    expect(server.requests[0]?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    expect(server.requests[0]?.body.max_tokens).toBe(4096 + 1024);
    expect(server.requests[1]?.body.thinking).toBeUndefined();
  });

  it('carries a tool loop with thinking, tool results and errors through valid requests', async () => {
    const { server, model } = await harness({ thinking: { budgetTokens: 2048 } });
    server.enqueue(
      {
        content: [
          { type: 'thinking', thinking: 'Two files to read.', signature: 'sig-1' },
          { type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: 'a.ts' } },
          { type: 'tool_use', id: 'toolu_b', name: 'read_file', input: { path: 'missing.ts' } },
        ],
      },
      { content: [{ type: 'text', text: 'a.ts exports one function; missing.ts does not exist.' }] },
    );
    const base = request({ tools: [readTool], maxTokens: 1024 });
    const turn1 = await model.generate(base, AbortSignal.timeout(10_000));
    const messages: Message[] = [
      ...base.messages,
      { role: 'assistant', content: turn1.content },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: 'export function a() {}' },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_b',
            content: [{ type: 'text', text: 'ENOENT' }],
            is_error: true,
          },
        ],
      },
    ];
    const turn2 = await model.generate({ ...base, messages }, AbortSignal.timeout(10_000));
    expect(turn2.stopReason).toBe('end_turn');

    const body = server.requests[1]?.body;
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(body.max_tokens).toBe(2048 + 1024);
    expect(body.messages[1].content[0]).toEqual({
      type: 'thinking',
      thinking: 'Two files to read.',
      signature: 'sig-1',
    });
    expect(body.messages[2].content[1]).toMatchObject({ tool_use_id: 'toolu_b', is_error: true });
    expect(body.messages[2].content[1].cache_control).toEqual({ type: 'ephemeral' });
    expect(server.validationErrors).toEqual([]);
  });
});
