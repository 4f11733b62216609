import { describe, expect, it } from 'vitest';
import { textReply } from '../testing/scripted-model.js';
import { fixtureRuntime } from './test-fixtures.js';

const reportSchema = {
  type: 'object',
  properties: { summary: { type: 'string' }, files: { type: 'array', items: { type: 'string' } } },
  required: ['summary', 'files'],
};

describe('output schemas', () => {
  it('a final answer that fails the schema is sent back with what was wrong; the corrected one is the output', async () => {
    const { runtime, model } = fixtureRuntime(
      [
        textReply('Here is what I found: auth is in src/auth.ts'),
        textReply('```json\n{"summary":"auth","files":["src/auth.ts"]}\n```'),
      ],
      {
        agents: [
          {
            name: 'investigator',
            description: 'x',
            systemPrompt: 'Investigate.',
            outputSchema: reportSchema,
          },
        ],
      },
    );
    const result = await runtime.spawn({ agent: 'investigator', prompt: 'Where is auth?' }).result;
    expect(result).toMatchObject({
      status: 'completed',
      turns: 2,
      output: { summary: 'auth', files: ['src/auth.ts'] },
    });
    expect(model.requests[0]!.system).toMatch(/must be a single JSON value[\s\S]*"required"/);
    const feedback = model.requests[1]!.messages.at(-1)!;
    expect(feedback.role).toBe('user');
    expect(String(feedback.content)).toMatch(/does not match the required output format/);
  });

  it('an answer still wrong when the turns run out fails with OUTPUT_SCHEMA_FAILED and keeps the text', async () => {
    const { runtime } = fixtureRuntime(() => textReply('no JSON at all'), {
      agents: [
        {
          name: 'investigator',
          description: 'x',
          systemPrompt: 'x',
          outputSchema: reportSchema,
          maxTurns: 2,
        },
      ],
    });
    const result = await runtime.spawn({ agent: 'investigator', prompt: 'x' }).result;
    expect(result).toMatchObject({
      status: 'failed',
      terminateReason: 'ERROR',
      output: 'no JSON at all',
      turns: 2,
    });
    expect(result.error?.code).toBe('OUTPUT_SCHEMA_FAILED');
  });
});

describe('model resolution', () => {
  const agents = [
    { name: 'quick', description: 'x', systemPrompt: 'x', model: 'small' },
    { name: 'planner', description: 'x', systemPrompt: 'x', model: 'plan' },
    { name: 'pinned', description: 'x', systemPrompt: 'x', model: 'claude-custom-1' },
    { name: 'inherits', description: 'x', systemPrompt: 'x', model: 'inherit' },
  ];
  const models = { default: 'main-model', small: 'small-model', plan: 'plan-model', opus: 'opus-model' };

  it('call-site model > definition model > inherit, through the configured aliases', async () => {
    const { runtime, model } = fixtureRuntime(() => textReply('ok'), { agents, models });
    for (const [agent, callSite] of [
      ['quick'],
      ['planner'],
      ['pinned'],
      ['inherits'],
      ['quick', 'opus'],
      ['pinned', 'haiku'],
    ] as const)
      await runtime.spawn({ agent, prompt: 'x', ...(callSite ? { model: callSite } : {}) }).result;
    expect(model.requests.map((request) => request.model)).toEqual([
      'small-model',
      'plan-model',
      'claude-custom-1',
      'main-model',
      'opus-model',
      'claude-haiku-5-5',
    ]);
  });

  it('records on the result the model id the provider reports', async () => {
    const { runtime } = fixtureRuntime(() => ({ ...textReply('ok'), model: 'small-model-20261101' }), {
      agents,
      models,
    });
    expect((await runtime.spawn({ agent: 'quick', prompt: 'x' }).result).model).toBe('small-model-20261101');
  });
});

describe('agent tool lists', () => {
  it('reports allow-list names that match no tool of the runtime, once', async () => {
    const { runtime } = fixtureRuntime(() => textReply('ok'), {
      agents: [
        { name: 'claude-style', description: 'x', systemPrompt: 'x', tools: ['Echo', 'WebFetch', 'Task'] },
      ],
    });
    await runtime.spawn({ agent: 'claude-style', prompt: 'x' }).result;
    await runtime.spawn({ agent: 'claude-style', prompt: 'x' }).result;
    expect(runtime.agents.warnings()).toEqual([
      'Agent "claude-style" lists tool "WebFetch", which matches no tool of this runtime; it is ignored.',
    ]);
  });
});
