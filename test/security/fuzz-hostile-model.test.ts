// Issue #14, fuzz: whatever a model answers (any content, any usage, garbage, thrown errors), any
// tool input it sends and whatever an approval policy returns, with the file store, the process
// stays up (an unhandled rejection fails this test run), every task ends exactly once in a final
// state, and every task's journal replays to its recorded end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, type ModelAdapter, type ModelResponse, replayTask } from '@troupe/core';
import { createFileStore } from '@troupe/node';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { echoTool, touchTool } from './stand-in-tools.js';

const FINAL = ['completed', 'failed', 'cancelled'];

/** A few ids, so that duplicate tool_use ids are common. */
const toolUseId = fc.constantFrom('toolu_1', 'toolu_2', 'toolu_3', '', 'toolu_1');
const toolName = fc.oneof(fc.constantFrom('echo', 'touch', 'missing', 'task'), fc.string({ maxLength: 8 }));
const block = fc.oneof(
  fc.record({ type: fc.constant('text'), text: fc.string({ maxLength: 200 }) }),
  fc.record({ type: fc.constant('tool_use'), id: toolUseId, name: toolName, input: fc.anything() }),
  fc.record(
    { type: fc.constantFrom('thinking', 'image', 'bogus'), text: fc.anything() },
    { requiredKeys: [] },
  ),
  fc.anything(),
);
const count = fc.oneof(
  fc.nat({ max: 50_000 }),
  fc.constantFrom(Number.NaN, -1, -1e12, Number.POSITIVE_INFINITY, 1e300),
  fc.constant(null),
  fc.string({ maxLength: 4 }),
);
const usage = fc.oneof(
  fc.record({ input: count, output: count }, { requiredKeys: [] }),
  fc.constantFrom(undefined, null, 42, 'lots'),
);
/** One model turn: a response of any shape, or an error thrown by the adapter. */
const turn = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      { content: fc.array(block, { maxLength: 4 }), usage },
      { requiredKeys: ['content'] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({ content: fc.anything(), usage, stopReason: fc.anything() }, { requiredKeys: [] }),
  },
  { weight: 1, arbitrary: fc.anything() },
  { weight: 1, arbitrary: fc.constant({ throws: 'adapter failed' }) },
);
const policyAnswer = fc.constantFrom('approve', 'deny', undefined, 42, null, { decision: 'approve' });

const tools = [echoTool, touchTool];

describe('fuzz: a hostile model with the file store', () => {
  it('never kills the process; every task ends exactly once; every journal replays', async () => {
    // Tallies across runs, so that the property cannot pass without exercising anything.
    let consumedTurns = 0;
    const statuses = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(turn, { maxLength: 5 }), { minLength: 1, maxLength: 3 }),
        policyAnswer,
        fc.boolean(),
        async (scripts, answer, cancelFirst) => {
          const dir = mkdtempSync(join(tmpdir(), 'troupe-fuzz-'));
          const store = createFileStore({ dir, snapshotDelayMs: 0 });
          const byPrompt = new Map(scripts.map((script, index) => [`task ${index}`, [...script]]));
          const model: ModelAdapter = {
            async generate(request) {
              const first = request.messages[0]?.content;
              const prompt = typeof first === 'string' ? first : JSON.stringify(first);
              const key = [...byPrompt.keys()].find((name) => prompt.includes(name));
              const script = key === undefined ? [] : byPrompt.get(key)!;
              const next = script.shift();
              if (next !== undefined) consumedTurns++;
              if (next === undefined)
                return { content: [{ type: 'text', text: 'done' }], usage: { input: 1, output: 1 } };
              if (next && typeof next === 'object' && 'throws' in next) throw new Error(String(next.throws));
              return next as ModelResponse;
            },
          };
          const runtime = createRuntime({
            model,
            tools,
            agents: [{ name: 'target', description: 'Fuzzed.', systemPrompt: 'Work.', tools: ['*'] }],
            approval: (() => answer) as never,
            store,
            limits: { maxTurns: 6, timeoutMs: 60_000, tokenBudget: 50_000 },
          });
          const ends = new Map<string, number>();
          for (const name of ['task.completed', 'task.failed', 'task.cancelled'] as const)
            runtime.on(name, (event) => ends.set(event.taskId, (ends.get(event.taskId) ?? 0) + 1));
          try {
            const handles = scripts.map((_script, index) =>
              runtime.spawn({ agent: 'target', prompt: `task ${index}`, description: `task ${index}` }),
            );
            if (cancelFirst) runtime.cancel(handles[0]!.id);
            const results = await Promise.all(handles.map((handle) => handle.result));
            await store.flush();
            for (const [index, result] of results.entries()) {
              const id = handles[index]!.id;
              expect(FINAL).toContain(result.status);
              statuses.add(result.status);
              expect(ends.get(id), `task ${index} ended ${ends.get(id)} times`).toBe(1);
              const replay = await replayTask(store, id);
              expect(replay.matches, `task ${index}'s journal replays to its end`).toBe(true);
            }
          } finally {
            await runtime.shutdown();
            rmSync(dir, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 40 },
    );
    expect(consumedTurns).toBeGreaterThan(40);
    expect([...statuses].sort()).toEqual(['cancelled', 'completed', 'failed']);
  }, 240_000);
});
