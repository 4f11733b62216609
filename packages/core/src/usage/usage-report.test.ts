import { describe, expect, it } from 'vitest';
import { fixtureRuntime } from '../runtime/test-fixtures.js';
import { textReply } from '../testing/scripted-model.js';
import { estimateCost } from './estimate-cost.js';
import { DEFAULT_PRICES, priceOf } from './prices.js';

describe('prices', () => {
  it('match the longest key a model id contains, and fill cache prices from input', () => {
    expect(priceOf('claude-opus-4-1-20250805')).toMatchObject({ input: 15, output: 75 });
    expect(priceOf('claude-opus-4-5')).toEqual({
      input: 5,
      output: 25,
      cacheRead: 0.5,
      cacheWrite: 6.25,
      cacheWrite1h: 10,
    });
    expect(priceOf('CLAUDE-3-5-HAIKU-latest')).toMatchObject({ input: 0.8 });
    expect(priceOf('gpt-4o')).toBeUndefined();
    expect(
      priceOf('gpt-4o', { ...DEFAULT_PRICES, gpt: { input: 2, output: 8, cacheRead: 1 } }),
    ).toMatchObject({ cacheRead: 1 });
  });

  it('price uncached input, reads, 5-minute and 1-hour writes and output apart (input includes the cache tokens)', () => {
    const price = priceOf('claude-sonnet-4-5')!;
    const cost = estimateCost(
      { input: 1_000_000, output: 1_000_000, cacheRead: 500_000, cacheWrite: 300_000, cacheWrite1h: 100_000 },
      price,
    );
    // 200k uncached × 3 + 500k × 0.3 + 200k × 3.75 + 100k × 6 + 1M × 15, per million.
    expect(cost).toBeCloseTo(0.6 + 0.15 + 0.75 + 0.6 + 15, 10);
  });
});

describe('runtime.usage', () => {
  it('sums ended tasks by agent, model and session, and filters by task, session and model', async () => {
    const { runtime } = fixtureRuntime((request) =>
      textReply(
        'done',
        request.model.includes('haiku')
          ? { input: 1000, output: 100, cacheRead: 800, cacheWrite: 100 }
          : { input: 2000, output: 200 },
      ),
    );
    const a = runtime.spawn({ agent: 'explore', prompt: 'a', sessionKey: 's1', model: 'haiku' });
    const b = runtime.spawn({ agent: 'explore', prompt: 'b', sessionKey: 's2' });
    await Promise.all([a.result, b.result]);
    const report = await runtime.usage();
    expect(report.total).toMatchObject({
      tasks: 2,
      input: 3000,
      output: 300,
      cacheRead: 800,
      cacheWrite: 100,
    });
    expect(Object.keys(report.bySession).sort()).toEqual(['s1', 's2']);
    const haiku = Object.keys(report.byModel).find((model) => model.includes('haiku'))!;
    expect(report.byModel[haiku]!.cost).toBeCloseTo(
      estimateCost({ input: 1000, output: 100, cacheRead: 800, cacheWrite: 100 }, priceOf(haiku)!),
      12,
    );
    expect((await runtime.usage({ sessionKey: 's2' })).total.input).toBe(2000);
    expect((await runtime.usage({ taskId: a.id })).total.tasks).toBe(1);
    expect((await runtime.usage({ taskId: 'missing' })).total.tasks).toBe(0);
    expect((await runtime.usage({ model: haiku })).total.input).toBe(1000);
  });
});
