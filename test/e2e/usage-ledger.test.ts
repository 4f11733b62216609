// The usage ledger end to end: tasks run through @troupe/anthropic against the fake API (which
// simulates the prompt cache and reports reads and writes as the real API does), the ledger read
// back from a file store by a second runtime after a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, estimateCost, priceOf } from '@troupe/core';
import { createFileStore } from '@troupe/node';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type FakeAnthropicModel,
  startFakeAnthropicModel,
  systemOf,
  textStep,
  toolStep,
} from '../fake-anthropic/index.js';
import { lookupTool } from './lookup-tool.js';

const lookup = lookupTool((key) => `fact about ${key}: ${'detail '.repeat(200)}`);

const agents = [
  {
    name: 'explore',
    description: 'Finds facts.',
    systemPrompt: `You are explore. ${'Rule. '.repeat(900)}`,
    tools: ['lookup'],
    model: 'haiku',
  },
  {
    name: 'reviewer',
    description: 'Reviews.',
    systemPrompt: `You are reviewer. ${'Rule. '.repeat(900)}`,
    tools: ['lookup'],
  },
];
const models = { default: 'claude-sonnet-4-5', haiku: 'claude-haiku-4-5' };

let fake: FakeAnthropicModel | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the usage ledger', () => {
  it('counts each task’s tokens and cost by agent, model and session, read back from the file store after a restart', async () => {
    fake = await startFakeAnthropicModel({
      minCacheTokens: 1,
      handler: (request) =>
        request.body.messages.length < 5
          ? toolStep('lookup', { key: systemOf(request).slice(0, 12) })
          : textStep('done'),
    });
    const dir = mkdtempSync(join(tmpdir(), 'troupe-ledger-'));
    dirs.push(dir);
    const runtime = createRuntime({
      model: fake.model,
      tools: [lookup],
      agents,
      models,
      store: createFileStore({ dir }),
    });
    const a = runtime.spawn({ agent: 'explore', prompt: 'find a', sessionKey: 's1' });
    const b = runtime.spawn({ agent: 'reviewer', prompt: 'review b', sessionKey: 's1' });
    const c = runtime.spawn({ agent: 'explore', prompt: 'find c', sessionKey: 's2' });
    const results = await Promise.all([a.result, b.result, c.result]);
    for (const result of results) expect(result.error?.message ?? result.status).toBe('completed');
    // What the fake reported, request by request, is what the ledger sums.
    const reported = fake.server.requests.reduce(
      (sum, request) => sum + (request.usage?.cache_read_input_tokens ?? 0),
      0,
    );
    expect(reported).toBeGreaterThan(0);
    const live = await runtime.usage();
    expect(live.total.tasks).toBe(3);
    expect(live.total.cacheRead).toBe(reported);
    await runtime.shutdown();

    const reopened = createRuntime({
      model: fake.model,
      tools: [lookup],
      agents,
      models,
      store: createFileStore({ dir }),
    });
    const all = await reopened.usage();
    expect(all).toEqual(live);
    expect(Object.keys(all.byAgent).sort()).toEqual(['explore', 'reviewer']);
    expect(all.byAgent.explore!.tasks).toBe(2);
    expect(Object.keys(all.byModel).sort()).toEqual(['claude-haiku-4-5', 'claude-sonnet-4-5']);
    expect(all.bySession.s1!.tasks).toBe(2);
    const explore = results[0]!;
    const one = await reopened.usage({ taskId: explore.taskId });
    expect(one.total).toMatchObject({
      tasks: 1,
      input: explore.usage.input,
      output: explore.usage.output,
      cacheRead: explore.usage.cacheRead,
      cacheWrite: explore.usage.cacheWrite,
    });
    expect(one.total.cost).toBeCloseTo(estimateCost(explore.usage, priceOf('claude-haiku-4-5')!), 12);
    // Reads are cheaper than input: the cache saved money on this task.
    const uncachedCost = estimateCost(
      { input: explore.usage.input, output: explore.usage.output },
      priceOf('claude-haiku-4-5')!,
    );
    expect(one.total.cost).toBeLessThan(uncachedCost);
    expect((await reopened.usage({ sessionKey: 's1', agent: 'reviewer' })).total.tasks).toBe(1);
    expect((await reopened.usage({ model: 'claude-haiku-4-5' })).total.tasks).toBe(2);
    // A host's own price table.
    const priced = createRuntime({
      model: fake.model,
      agents,
      models,
      store: createFileStore({ dir }),
      prices: { haiku: { input: 1000, output: 0, cacheRead: 0, cacheWrite: 0 } },
    });
    const custom = await priced.usage({ taskId: explore.taskId });
    const uncached = explore.usage.input - (explore.usage.cacheRead ?? 0) - (explore.usage.cacheWrite ?? 0);
    expect(custom.total.cost).toBeCloseTo(uncached / 1000, 9);
    expect((await priced.usage({ agent: 'reviewer' })).total.unpriced).toBe(1);
    await reopened.shutdown();
    await priced.shutdown();
  });
});
