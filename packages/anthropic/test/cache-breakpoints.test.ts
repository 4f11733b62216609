import type { ContentBlock, Message, ModelRequest } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { PromptCache, validateMessagesRequest } from '../../../test/fake-anthropic/index.js';
import { toRequestParams } from '../src/index.js';

const settings = {
  model: 'claude-test-1',
  defaultMaxTokens: 4096,
  cache: { system: true, tools: true, messages: true },
  thinkingBudget: undefined,
};

const base: ModelRequest = {
  model: 'claude-test-1',
  system: 'You are the explore agent. '.repeat(40),
  tools: [{ name: 'read', description: 'Reads a file.', input_schema: { type: 'object' } }],
  messages: [],
  maxTokens: 1024,
};

/** One turn of `count` parallel reads: the assistant's calls, then the user's results. */
function parallelReads(turn: number, count: number): Message[] {
  const ids = Array.from({ length: count }, (_, index) => `toolu_${turn}_${index}`);
  const calls: ContentBlock[] = ids.map((id, index) => ({
    type: 'tool_use',
    id,
    name: 'read',
    input: { path: `src/file-${turn}-${index}.ts` },
  }));
  const results: ContentBlock[] = ids.map((id, index) => ({
    type: 'tool_result',
    tool_use_id: id,
    content: `contents of file ${turn}-${index} `.repeat(20),
  }));
  return [
    { role: 'assistant', content: calls },
    { role: 'user', content: results },
  ];
}

/** The paths of the blocks that carry `cache_control`. */
function breakpointsOf(body: Record<string, any>): string[] {
  const blocks: [string, any][] = [];
  for (const [index, tool] of (body.tools ?? []).entries()) blocks.push([`tools.${index}`, tool]);
  for (const [index, block] of (body.system ?? []).entries()) blocks.push([`system.${index}`, block]);
  for (const [index, message] of body.messages.entries())
    for (const [at, block] of message.content.entries()) blocks.push([`messages.${index}.${at}`, block]);
  return blocks.filter(([, block]) => block.cache_control).map(([path]) => path);
}

describe('cache breakpoints in the conversation', () => {
  it('a turn of 12 parallel reads (24 blocks) still reads the previous prefix: a breakpoint stays where the previous request ended', () => {
    const first: Message[] = [{ role: 'user', content: 'Read the auth code.' }, ...parallelReads(1, 2)];
    const second: Message[] = [...first, ...parallelReads(2, 12)];
    const before = toRequestParams({ ...base, messages: first }, settings) as Record<string, any>;
    const after = toRequestParams({ ...base, messages: second }, settings) as Record<string, any>;
    expect(breakpointsOf(before)).toEqual(['tools.0', 'system.0', 'messages.0.0', 'messages.2.1']);
    // The breakpoint on the last block looks back at most 20 blocks: 24 were added since the
    // previous breakpoint, so a fourth one marks the end of the previous request's conversation.
    expect(breakpointsOf(after)).toEqual(['tools.0', 'system.0', 'messages.2.1', 'messages.4.11']);
    expect(validateMessagesRequest(after)).toEqual([]);

    const cache = new PromptCache(1);
    const firstUsage = cache.account(before);
    const secondUsage = cache.account(after);
    expect(firstUsage.cacheRead).toBe(0);
    expect(secondUsage.cacheRead).toBe(firstUsage.cacheWrite);
  });

  it('a short turn reads the previous prefix too, with the same four breakpoints', () => {
    const first: Message[] = [{ role: 'user', content: 'Read it.' }, ...parallelReads(1, 1)];
    const second: Message[] = [...first, ...parallelReads(2, 3)];
    const before = toRequestParams({ ...base, messages: first }, settings) as Record<string, any>;
    const after = toRequestParams({ ...base, messages: second }, settings) as Record<string, any>;
    const cache = new PromptCache(1);
    const firstUsage = cache.account(before);
    expect(cache.account(after).cacheRead).toBe(firstUsage.cacheWrite);
    expect(breakpointsOf(after)).toEqual(['tools.0', 'system.0', 'messages.2.0', 'messages.4.2']);
  });

  it('with message caching off, no breakpoint is placed in the conversation', () => {
    const messages: Message[] = [
      { role: 'user', content: 'Go.' },
      ...parallelReads(1, 12),
      ...parallelReads(2, 12),
    ];
    const body = toRequestParams(
      { ...base, messages },
      { ...settings, cache: { system: true, tools: true, messages: false } },
    ) as Record<string, any>;
    expect(breakpointsOf(body)).toEqual(['tools.0', 'system.0']);
  });
});

describe('the cache lifetime of a request', () => {
  it('is the default 5 minutes, or 1 hour on every breakpoint with cacheLifetime 1h (valid: no 1-hour breakpoint after a 5-minute one)', () => {
    const messages: Message[] = [{ role: 'user', content: 'Find the login code.' }, ...parallelReads(1, 2)];
    const controls = (request: ModelRequest) => {
      const params = toRequestParams(request, settings) as unknown as Record<string, any>;
      expect(validateMessagesRequest(params)).toEqual([]);
      return JSON.stringify(params).match(/"cache_control":\{[^}]*\}/g);
    };
    expect(controls({ ...base, messages })).toEqual(Array(4).fill('"cache_control":{"type":"ephemeral"}'));
    expect(controls({ ...base, messages, cacheLifetime: '1h' })).toEqual(
      Array(4).fill('"cache_control":{"type":"ephemeral","ttl":"1h"}'),
    );
  });
});
