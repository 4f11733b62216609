import { describe, expect, it } from 'vitest';
import { fixtureRuntime, turnOf } from '../runtime/test-fixtures.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
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

describe('usage by model within a task', () => {
  it('keeps the usage of each model that answered a task and prices each part under its own model', async () => {
    // A fallback: the first turn is answered by opus, the next two by haiku.
    const { runtime } = fixtureRuntime((request) =>
      turnOf(request) === 1
        ? {
            ...toolReply('echo', { text: 'x' }, { usage: { input: 1000, output: 100 } }),
            model: 'claude-opus-4-5',
          }
        : turnOf(request) === 2
          ? {
              ...toolReply('echo', { text: 'y' }, { usage: { input: 2000, output: 50, cacheRead: 900 } }),
              model: 'claude-haiku-4-5',
            }
          : { ...textReply('done', { input: 3000, output: 20, cacheRead: 1900 }), model: 'claude-haiku-4-5' },
    );
    const handle = runtime.spawn({ agent: 'explore', prompt: 'p', sessionKey: 's' });
    const result = await handle.result;
    expect(result.model).toBe('claude-haiku-4-5');
    expect(result.usage).toMatchObject({ input: 6000, output: 170, cacheRead: 2800 });
    expect(result.usageByModel).toEqual({
      'claude-opus-4-5': { input: 1000, output: 100 },
      'claude-haiku-4-5': { input: 5000, output: 70, cacheRead: 2800 },
    });
    const opus = estimateCost({ input: 1000, output: 100 }, priceOf('claude-opus-4-5')!);
    const haiku = estimateCost({ input: 5000, output: 70, cacheRead: 2800 }, priceOf('claude-haiku-4-5')!);
    const report = await runtime.usage({ taskId: handle.id });
    expect(report.total.tasks).toBe(1);
    expect(report.total.cost).toBeCloseTo(opus + haiku, 12);
    expect(report.byAgent.explore).toMatchObject({ tasks: 1, input: 6000 });
    expect(report.byModel['claude-opus-4-5']).toMatchObject({ tasks: 1, input: 1000, output: 100 });
    expect(report.byModel['claude-opus-4-5']!.cost).toBeCloseTo(opus, 12);
    expect(report.byModel['claude-haiku-4-5']).toMatchObject({ tasks: 1, input: 5000, cacheRead: 2800 });
    // Priced as a whole under its last model, the task would cost much less than it did.
    expect(report.total.cost).toBeGreaterThan(estimateCost(result.usage, priceOf('claude-haiku-4-5')!) * 1.5);
    // A model filter counts only that model's part.
    expect((await runtime.usage({ model: 'claude-opus-4-5' })).total).toMatchObject({
      tasks: 1,
      input: 1000,
    });
    // The split is stored with the result.
    expect((await runtime.store.loadResult(handle.id))?.usageByModel).toEqual(result.usageByModel);
  });

  it('leaves a one-model task as it was: no split', async () => {
    const { runtime } = fixtureRuntime(() => textReply('done'));
    const result = await runtime.spawn({ agent: 'explore', prompt: 'p' }).result;
    expect(result.usageByModel).toBeUndefined();
  });
});

describe('main-agent runs in the ledger', () => {
  it('stores each ended main-agent run as a task of depth 0, counted per session and model, not listed by task_list', async () => {
    const { runtime } = fixtureRuntime((request) =>
      request.system.includes('You explore.')
        ? textReply('found', { input: 100, output: 10 })
        : turnOf(request) === 1 && request.messages.length === 1
          ? toolReply(
              'task',
              { description: 'look', prompt: 'look', subagent_type: 'explore' },
              {
                usage: { input: 4000, output: 40, cacheWrite: 3000 },
              },
            )
          : request.messages.at(-1)?.role === 'user' &&
              typeof request.messages.at(-1)?.content === 'string' &&
              String(request.messages.at(-1)?.content).includes('list')
            ? toolReply('task_list', {}, { usage: { input: 5000, output: 5, cacheRead: 4000 } })
            : textReply('ok', { input: 4500, output: 50, cacheRead: 4000 }),
    );
    const session = runtime.createSession({ sessionKey: 'chat' });
    await session.send('look around');
    await runtime.store.flush();
    const report = await runtime.usage({ sessionKey: 'chat' });
    expect(report.main).toMatchObject({
      tasks: 1,
      input: 8500,
      output: 90,
      cacheRead: 4000,
      cacheWrite: 3000,
    });
    expect(report.total).toMatchObject({ tasks: 2, input: 8600, output: 100 });
    expect(report.byAgent.main).toMatchObject({ tasks: 1, input: 8500 });
    expect(report.bySession.chat!.tasks).toBe(2);
    expect(report.main.cost).toBeCloseTo(
      estimateCost(
        { input: 8500, output: 90, cacheRead: 4000, cacheWrite: 3000 },
        priceOf(runtime.agents.models.default)!,
      ),
      12,
    );
    const stored = (await runtime.history({ sessionKey: 'chat' })).tasks.find((info) => info.depth === 0)!;
    expect(stored).toMatchObject({ agent: 'main', status: 'completed', sessionKey: 'chat' });
    expect(stored.id).not.toContain('#');
    // The main agent's task_list shows its sub-agent task, not its own runs.
    const listed = await session.send('list the tasks');
    const listing = session.messages
      .flatMap((message) => (typeof message.content === 'string' ? [] : message.content))
      .find((block) => block.type === 'tool_result');
    expect(listed.text).toBe('ok');
    expect(JSON.stringify(listing)).toContain('explore');
    expect(JSON.stringify(listing)).not.toContain('main agent');
    expect((await runtime.usage({ sessionKey: 'chat' })).main.tasks).toBe(2);
  });
});
