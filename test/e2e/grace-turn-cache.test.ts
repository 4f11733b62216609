// The grace turn after MAX_TURNS or TIMEOUT, through @troupe/anthropic against the strict fake
// Anthropic server: it sends the same tools and cache breakpoints as the turn before, so it reads
// the cached prefix instead of writing the whole conversation again.
import { createRuntime } from '@troupe/core';
import { manualClock } from '@troupe/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type FakeAnthropicModel,
  lastUserText,
  PromptCache,
  type RecordedRequest,
  startFakeAnthropicModel,
  toolStep,
} from '../fake-anthropic/index.js';
import { lookupTool } from './lookup-tool.js';

const looked: string[] = [];
const lookup = lookupTool((key) => {
  looked.push(key);
  return `fact about ${key} `.repeat(40);
});

const agents = [
  {
    name: 'explore',
    description: 'Finds facts.',
    systemPrompt: 'You are the explore agent. '.repeat(20),
    tools: ['lookup'],
  },
];

const isGrace = (request: RecordedRequest) => lastUserText(request).includes('Do not call any more tools');

/** The grace turn answers with text and one more tool call, which must not run. */
function graceAnswer(text: string) {
  return toolStep('lookup', { key: 'one-more' }, { text });
}

/** Where `cache_control` sits in a body: tools and system by index, messages by (message, block). */
function breakpointsOf(body: Record<string, any>): string[] {
  const blocks: [string, any][] = [];
  for (const [index, tool] of (body.tools ?? []).entries()) blocks.push([`tools.${index}`, tool]);
  for (const [index, block] of (body.system ?? []).entries()) blocks.push([`system.${index}`, block]);
  for (const [index, message] of body.messages.entries())
    for (const [at, block] of (Array.isArray(message.content) ? message.content : []).entries())
      blocks.push([`messages.${index}.${at}`, block]);
  return blocks.filter(([, block]) => block.cache_control).map(([path]) => path);
}

/** The breakpoints every turn carries: tools, system, the previous turn's end and the last block. */
const expectedBreakpoints = (body: Record<string, any>) => {
  const endOf = (index: number) => `messages.${index}.${body.messages[index].content.length - 1}`;
  const last = body.messages.length - 1;
  return ['tools.0', 'system.0', ...(last >= 2 ? [endOf(last - 2)] : []), endOf(last)];
};

/** The grace request against the one before it: same tools, system and breakpoints; reads the prefix. */
function expectGraceReadsThePrefix(requests: readonly RecordedRequest[]) {
  const grace = requests.at(-1)!;
  const previous = requests.at(-2)!;
  expect(isGrace(grace)).toBe(true);
  expect(JSON.stringify(grace.body.tools)).toBe(JSON.stringify(previous.body.tools));
  expect(JSON.stringify(grace.body.system)).toBe(JSON.stringify(previous.body.system));
  expect(breakpointsOf(previous.body)).toEqual(expectedBreakpoints(previous.body));
  expect(breakpointsOf(grace.body)).toEqual(expectedBreakpoints(grace.body));
  // Replayed through the same cache simulator the fake uses: the grace turn reads everything the
  // turn before wrote, and writes only what it adds.
  const cache = new PromptCache(1);
  const usages = requests.map((request) => cache.account(request.body));
  const graceUsage = usages.at(-1)!;
  const previousUsage = usages.at(-2)!;
  expect(graceUsage.cacheRead).toBe(previousUsage.cacheRead + previousUsage.cacheWrite);
  expect(graceUsage.cacheRead).toBeGreaterThan(0);
}

let fake: FakeAnthropicModel | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  looked.length = 0;
});

describe('the grace turn keeps the prompt cache (@troupe/anthropic against the fake API)', () => {
  it('MAX_TURNS: the grace request carries the same tools and breakpoints and reads the previous prefix', async () => {
    fake = await startFakeAnthropicModel({
      simulateCache: true,
      minCacheTokens: 1,
      handler: (request) =>
        isGrace(request)
          ? graceAnswer('Best effort: auth is in src/auth.')
          : toolStep('lookup', { key: `k${request.index}` }),
    });
    const runtime = createRuntime({ model: fake.model, tools: [lookup], agents });
    const result = await runtime.spawn({ agent: 'explore', prompt: 'Find auth', limits: { maxTurns: 3 } })
      .result;
    expect(result).toMatchObject({
      status: 'failed',
      terminateReason: 'MAX_TURNS',
      output: 'Best effort: auth is in src/auth.',
      turns: 4,
      toolCalls: 3,
    });
    expect(looked).toEqual(['k0', 'k1', 'k2']);
    const requests = fake.server.requests;
    expect(requests).toHaveLength(4);
    expect(requests.every((request) => request.validationErrors.length === 0)).toBe(true);
    expectGraceReadsThePrefix(requests);
  });

  it('TIMEOUT: the grace request carries the same tools and breakpoints and reads the previous prefix', async () => {
    const clock = manualClock();
    fake = await startFakeAnthropicModel({
      simulateCache: true,
      minCacheTokens: 1,
      handler: (request) => {
        if (isGrace(request)) return graceAnswer('Out of time: auth is probably in src/auth.');
        if (request.index === 0) return toolStep('lookup', { key: 'first' });
        // The second turn never answers: the deadline aborts it.
        return { fault: 'hang' };
      },
    });
    const runtime = createRuntime({ model: fake.model, tools: [lookup], agents, clock });
    const handle = runtime.spawn({ agent: 'explore', prompt: 'Find auth', limits: { timeoutMs: 60_000 } });
    await fake.server.waitForRequests(2);
    clock.advance(60_000);
    const result = await handle.result;
    expect(result).toMatchObject({
      status: 'failed',
      terminateReason: 'TIMEOUT',
      output: 'Out of time: auth is probably in src/auth.',
    });
    expect(looked).toEqual(['first']);
    const requests = fake.server.requests;
    expect(requests).toHaveLength(3);
    expectGraceReadsThePrefix(requests);
  });
});
