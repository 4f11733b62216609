// Issue #14, items 6 and 7: a model that reports NaN, negative, null or no usage cannot disable
// the token budget; a model that repeats a tool_use id cannot stall its task until the timeout.
import { createRuntime, defineTool, type ModelAdapter, type RuntimeWarning } from '@troupe/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';

const agents = [{ name: 'worker', description: 'Works.', systemPrompt: 'Work.', tools: ['*'] }];
const note = defineTool({
  name: 'note',
  description: 'Takes a note.',
  access: 'read',
  input: v.object({ text: v.string() }),
  execute: ({ text }) => `noted ${text}`,
});

describe('the token budget does not trust reported usage', () => {
  it.each([
    ['NaN', { input: Number.NaN, output: Number.NaN }],
    ['negative', { input: -1_000_000, output: -5 }],
    ['null', null],
    ['missing', undefined],
    ['counts null', { input: null, output: null }],
  ])(
    'usage %s: the budget still ends a chatty task, with a USAGE_ESTIMATED warning',
    async (_name, usage) => {
      let calls = 0;
      const model: ModelAdapter = {
        generate: async () => {
          calls++;
          return {
            content: [
              { type: 'text', text: 'x'.repeat(4_000) },
              { type: 'tool_use', id: `toolu_${calls}`, name: 'note', input: { text: 'y'.repeat(4_000) } },
            ],
            usage,
          } as never;
        },
      };
      const runtime = createRuntime({
        model,
        agents,
        tools: [note],
        limits: { tokenBudget: 10_000, maxTurns: 1_000 },
      });
      const warnings: RuntimeWarning[] = [];
      runtime.on('runtime.warning', (warning) => warnings.push(warning));
      const result = await runtime.spawn({ agent: 'worker', prompt: 'go', description: 'go' }).result;
      expect(result.terminateReason).toBe('TOKEN_LIMIT');
      expect(calls).toBeLessThan(20);
      expect(result.usage.total).toBeGreaterThan(10_000);
      expect(warnings[0]?.code).toBe('USAGE_ESTIMATED');
      await runtime.shutdown();
    },
  );
});

describe('duplicate tool_use ids', () => {
  it('a repeated id is answered with an error at once and the task goes on (no stall until the timeout)', async () => {
    let calls = 0;
    const model: ModelAdapter = {
      generate: async (request) => {
        calls++;
        if (calls === 1)
          return {
            content: [
              { type: 'tool_use', id: 'toolu_same', name: 'note', input: { text: 'a' } },
              { type: 'tool_use', id: 'toolu_same', name: 'note', input: { text: 'b' } },
              { type: 'tool_use', id: 'toolu_same', name: 'note', input: { text: 'c' } },
            ],
            usage: { input: 1, output: 1 },
          };
        const last = request.messages[request.messages.length - 1];
        return {
          content: [{ type: 'text', text: JSON.stringify(last?.content) }],
          usage: { input: 1, output: 1 },
        };
      },
    };
    const runtime = createRuntime({ model, agents, tools: [note], limits: { timeoutMs: 3_600_000 } });
    const result = await runtime.spawn({ agent: 'worker', prompt: 'go', description: 'go' }).result;
    expect(result.status).toBe('completed');
    const results = JSON.parse(String(result.output)) as { content: string; is_error?: boolean }[];
    expect(results).toHaveLength(3);
    expect(results[0]?.content).toBe('noted a');
    expect(results[1]).toMatchObject({ is_error: true });
    expect(results[1]?.content).toMatch(/already used/);
    await runtime.shutdown();
  });
});
