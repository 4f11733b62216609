// Issue #21, item 4, as a property: whatever value a tool throws or returns, a model adapter
// answers, throws or puts in a tool input, or an approval policy returns (BigInts, cycles, symbols,
// functions, objects with no prototype, proxies and getters that throw, 10,000-deep nesting), the
// task ends in a final state, every journal entry and the snapshot are plain JSON, and the journal
// replays to the stored documents. An unhandled rejection fails the run.
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { ModelAdapter, ModelResponse } from '../model/types.js';
import { replayTask } from '../replay/replay-task.js';
import { createMemoryStore } from '../store/memory-store.js';
import { defineTool } from '../tools/define-tool.js';
import { fixtureRuntime } from './test-fixtures.js';

const FINAL = ['completed', 'failed', 'cancelled'];

function trap(): never {
  throw new Error('trap');
}

/**
 * Values JSON cannot hold, or that bite whoever reads them. Built inside the property from a
 * recipe: fast-check itself would trip over a proxy whose every trap throws.
 */
const makers: ((seed: unknown) => unknown)[] = [
  () => 10n ** 30n,
  () => Symbol('s'),
  () => () => 'fn',
  () => undefined,
  () => Number.NaN,
  () => Object.create(null),
  () => Object.freeze({ frozen: true }),
  () =>
    new Proxy(
      {},
      { get: trap, getPrototypeOf: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap },
    ),
  () => Object.defineProperty({ type: 'text' }, 'text', { enumerable: true, get: trap }),
  () => Object.defineProperty(new Error('x'), 'message', { get: trap }),
  () => ({ toJSON: trap }),
  () => ({ toJSON: () => 10n }),
  () => {
    let deep: unknown = 'leaf';
    for (let level = 0; level < 10_000; level++) deep = { a: deep };
    return deep;
  },
  () => {
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    return loop;
  },
  (seed) => seed,
];

/** How the hostile value is wrapped: alone, as a property, an item, or in a text block. */
const wrappers: ((item: unknown) => unknown)[] = [
  (item) => item,
  (item) => ({ nested: item }),
  (item) => [item],
  (item) => [{ type: 'text', text: 'ok', extra: item }],
];

const recipe = fc.record({
  maker: fc.nat(makers.length - 1),
  wrapper: fc.nat(wrappers.length - 1),
  seed: fc.anything({ withBigInt: true, withNullPrototype: true, withSparseArray: true }),
});

function build({ maker, wrapper, seed }: { maker: number; wrapper: number; seed: unknown }): unknown {
  return wrappers[wrapper]!(makers[maker]!(seed));
}

type Where = 'tool-throws' | 'tool-returns' | 'tool-input' | 'response' | 'adapter-throws' | 'policy';

async function attack(where: Where, payload: unknown) {
  const usage = { input: 1, output: 1 };
  const callOdd = (input: unknown) => ({
    content: [{ type: 'tool_use', id: 'toolu_1', name: 'odd', input }],
    usage,
  });
  let calls = 0;
  const model: ModelAdapter = {
    async generate() {
      calls++;
      if (calls > 1) return { content: [{ type: 'text', text: 'done' }], usage };
      if (where === 'adapter-throws') throw payload;
      if (where === 'response') return payload as ModelResponse;
      return callOdd(where === 'tool-input' ? payload : {}) as ModelResponse;
    },
  };
  const odd = defineTool({
    name: 'odd',
    description: 'Odd',
    access: where === 'policy' ? 'write' : 'read',
    input: v.unknown(),
    execute: () => {
      if (where === 'tool-throws') throw payload;
      return (where === 'tool-returns' ? payload : 'fine') as string;
    },
  });
  const store = createMemoryStore();
  const { runtime } = fixtureRuntime([], {
    model,
    store,
    tools: [odd],
    agents: [{ name: 'explore', description: 'x', systemPrompt: 'x', tools: ['odd'] }],
    approval: where === 'policy' ? ((() => payload) as never) : 'auto',
  });
  const handle = runtime.spawn({ agent: 'explore', prompt: 'x' });
  const result = await handle.result;
  expect(FINAL).toContain(result.status);
  const { entries } = await store.loadJournal(handle.id);
  expect(JSON.parse(JSON.stringify(entries))).toEqual(entries);
  const snapshot = await store.loadSnapshot(handle.id);
  expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
  expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  const replay = await replayTask(store, handle.id);
  expect(replay.matches).toBe(true);
  await runtime.shutdown();
}

describe('no hostile value takes the host down or reaches the journal as non-JSON', () => {
  const places: Where[] = [
    'tool-throws',
    'tool-returns',
    'tool-input',
    'response',
    'adapter-throws',
    'policy',
  ];
  it.each(places)('%s', async (where) => {
    await fc.assert(
      fc.asyncProperty(recipe, (made) => attack(where, build(made))),
      { numRuns: 120 },
    );
  });
});
