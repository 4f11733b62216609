// Full sub-agent runs through createRuntime with @troupe/anthropic against the local fake
// Anthropic server: the real SDK, real HTTP and SSE, no network. The fake is strict: closing it
// fails the test if any request the adapter sent would have been refused by the real API.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, type TaskResult } from '@troupe/core';
import { createFileStore } from '@troupe/node';
import { afterEach, describe, expect, it } from 'vitest';
import {
  FAKE_API_KEY,
  type FakeAnthropicModel,
  lastUserText,
  type RecordedRequest,
  startFakeAnthropicModel,
  systemOf,
  textStep,
  toolResultsOf,
  toolStep,
} from '../fake-anthropic/index.js';
import { lookupTool } from './lookup-tool.js';

const lookup = lookupTool();

const agents = [
  {
    name: 'explore',
    description: 'Finds facts.',
    systemPrompt: 'You are the explore agent.',
    tools: ['lookup'],
  },
  { name: 'general-purpose', description: 'Does anything.', systemPrompt: 'You are general.' },
];

let fake: FakeAnthropicModel | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('@troupe/anthropic through the runtime, against the fake API', () => {
  it('runs a multi-turn tool-using task; usage and cache tokens are summed; the API model id is recorded', async () => {
    fake = await startFakeAnthropicModel({
      simulateCache: false,
      handler: (request: RecordedRequest) => {
        const results = toolResultsOf(request);
        const usage = { input: 100, output: 10, cacheRead: 50, cacheWrite: 20 };
        if (results.length === 0)
          return { ...toolStep('lookup', { key: 'auth' }, { usage }), model: 'claude-sonnet-5-5-20261101' };
        if (results.length === 1 && results[0]!.content === 'fact about auth' && request.index === 1)
          return {
            ...toolStep('lookup', { key: 'session' }, { usage }),
            model: 'claude-sonnet-5-5-20261101',
          };
        return {
          ...textStep(`Auth uses ${results[0]!.content}.`, usage),
          model: 'claude-sonnet-5-5-20261101',
        };
      },
    });
    const runtime = createRuntime({
      model: fake.model,
      tools: [lookup],
      agents,
      models: { default: 'sonnet' },
    });
    const result = await runtime.spawn({ agent: 'explore', prompt: 'How does auth work?' }).result;
    expect(result).toMatchObject({
      status: 'completed',
      terminateReason: 'GOAL',
      output: 'Auth uses fact about session.',
      turns: 3,
      toolCalls: 2,
      model: 'claude-sonnet-5-5-20261101',
    });
    // input counts every token read: 100 uncached + 50 cache reads + 20 cache writes, over 3 turns.
    expect(result.usage).toEqual({ input: 510, output: 30, cacheRead: 150, cacheWrite: 60, total: 540 });
    const requests = fake.server.requests;
    expect(requests).toHaveLength(3);
    expect(requests.every((request) => request.stream && request.validationErrors.length === 0)).toBe(true);
    expect(requests[0]!.body.model).toBe('claude-sonnet-5-5');
    expect(systemOf(requests[0]!)).toBe('You are the explore agent.');
    // System prompt and tools are marked cacheable.
    expect(JSON.stringify(requests[0]!.body.system)).toContain('"cache_control"');
    expect(JSON.stringify(requests[0]!.body.tools.at(-1))).toContain('"cache_control"');
  });

  it('reads repeated turns of a sub-agent from the prompt cache', async () => {
    fake = await startFakeAnthropicModel({
      simulateCache: true,
      minCacheTokens: 1,
      handler: (request) =>
        toolResultsOf(request).length === 0 ? toolStep('lookup', { key: 'x' }) : textStep('done'),
    });
    const runtime = createRuntime({ model: fake.model, tools: [lookup], agents });
    const result = await runtime.spawn({ agent: 'explore', prompt: 'Find x' }).result;
    expect(result.status).toBe('completed');
    expect(result.usage.cacheWrite).toBeGreaterThan(0);
    expect(result.usage.cacheRead).toBeGreaterThan(0);
  });

  it('a main agent delegates with a foreground task and answers with the result', async () => {
    fake = await startFakeAnthropicModel({
      simulateCache: false,
      handler: (request) => {
        if (systemOf(request).includes('main agent')) {
          const results = toolResultsOf(request);
          if (results.length === 0)
            return toolStep('task', {
              description: 'Find auth',
              prompt: 'Find where auth is handled',
              subagent_type: 'explore',
            });
          return textStep(`Summary: ${results[0]!.content.split('\n')[0]}`);
        }
        return toolResultsOf(request).length === 0
          ? toolStep('lookup', { key: 'auth' })
          : textStep('auth is in src/auth.ts');
      },
    });
    const runtime = createRuntime({ model: fake.model, tools: [lookup], agents });
    const session = runtime.createSession({ sessionKey: 'cli' });
    const reply = await session.send('Where is auth handled?');
    expect(reply.text).toBe('Summary: auth is in src/auth.ts');
    expect(runtime.list({ sessionKey: 'cli' })).toEqual([
      expect.objectContaining({ agent: 'explore', status: 'completed', toolCalls: 1 }),
    ]);
  });

  it('runs parallel tasks, each with its own conversation', async () => {
    fake = await startFakeAnthropicModel({
      simulateCache: false,
      handler: (request) => {
        const prompt = JSON.stringify(request.body.messages[0].content);
        const topic = /topic-(\d)/.exec(prompt)?.[0] ?? 'none';
        return toolResultsOf(request).length === 0
          ? toolStep('lookup', { key: topic })
          : textStep(`answer for ${topic}`);
      },
    });
    const runtime = createRuntime({
      model: fake.model,
      tools: [lookup],
      agents,
      limits: { maxConcurrent: 3 },
    });
    const handles = [1, 2, 3, 4].map((n) =>
      runtime.spawn({ agent: 'explore', prompt: `Research topic-${n}` }),
    );
    const results: TaskResult[] = await Promise.all(handles.map((handle) => handle.result));
    expect(results.map((result) => result.output)).toEqual([
      'answer for topic-1',
      'answer for topic-2',
      'answer for topic-3',
      'answer for topic-4',
    ]);
    expect(fake.server.requests).toHaveLength(8);
  });

  it('cancelling a task aborts its HTTP stream at once', async () => {
    fake = await startFakeAnthropicModel({
      simulateCache: false,
      chunkSize: 4,
      // Start, block start, ping and one text delta reach the client; then the stream waits forever.
      script: [
        {
          ...textStep('a very long answer that never finishes'),
          pauseAfterEvents: 4,
          gate: new Promise(() => {}),
        },
      ],
    });
    const runtime = createRuntime({ model: fake.model, tools: [lookup], agents });
    const started = new Promise((resolve) =>
      runtime.on('task.progress', (event) => event.kind === 'text' && resolve(event)),
    );
    const handle = runtime.spawn({ agent: 'explore', prompt: 'Talk' });
    await started;
    runtime.cancel(handle.id);
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'cancelled', terminateReason: 'ABORTED' });
    expect(await fake.server.requests[0]!.finished).toBe('client-closed');
  });

  it('a model API error after retries fails the task with a clear code, not a rejection', async () => {
    fake = await startFakeAnthropicModel(
      {
        simulateCache: false,
        handler: () => ({
          fault: 'http_error',
          status: 529,
          errorType: 'overloaded_error',
          message: 'Overloaded',
        }),
      },
      { maxRetries: 2 },
    );
    const runtime = createRuntime({ model: fake.model, tools: [lookup], agents });
    const result = await runtime.spawn({ agent: 'explore', prompt: 'x' }).result;
    expect(result).toMatchObject({
      status: 'failed',
      terminateReason: 'ERROR',
      error: { code: 'MODEL_OVERLOADED' },
    });
    expect(fake.server.requests).toHaveLength(3);
    expect(lastUserText(fake.server.requests[0]!)).toBe('x');
  });

  it('never persists the API key', async () => {
    fake = await startFakeAnthropicModel({
      simulateCache: false,
      handler: (request) =>
        toolResultsOf(request).length === 0 ? toolStep('lookup', { key: 'x' }) : textStep('done'),
    });
    const dir = mkdtempSync(join(tmpdir(), 'troupe-secrets-'));
    try {
      const runtime = createRuntime({
        model: fake.model,
        tools: [lookup],
        agents,
        store: createFileStore({ dir }),
      });
      expect((await runtime.spawn({ agent: 'explore', prompt: 'x' }).result).status).toBe('completed');
      await runtime.shutdown();
      const files = readdirSync(dir);
      expect(files.length).toBeGreaterThanOrEqual(4);
      for (const file of files) expect(readFileSync(join(dir, file), 'utf8')).not.toContain(FAKE_API_KEY);
      expect(JSON.stringify(fake.model)).not.toContain(FAKE_API_KEY);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
