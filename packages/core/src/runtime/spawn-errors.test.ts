import { describe, expect, it } from 'vitest';
import { DefinitionError, TroupeError, ValidationError } from '../errors.js';
import { scriptedModel, textReply } from '../testing/scripted-model.js';
import { createRuntime } from './create-runtime.js';
import { fixtureRuntime } from './test-fixtures.js';

describe('bad input is a clear synchronous error', () => {
  const { runtime } = fixtureRuntime([textReply('ok')], {
    agents: [
      {
        name: 'typed',
        description: 'x',
        systemPrompt: 'x',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      },
      { name: 'explore', description: 'x', systemPrompt: 'x' },
    ],
  });

  it('unknown agent, naming the available ones', () => {
    expect(() => runtime.spawn({ agent: 'ghost', prompt: 'x' })).toThrow(DefinitionError);
    expect(() => runtime.spawn({ agent: 'ghost', prompt: 'x' })).toThrow(
      'Unknown agent "ghost". Available agents: explore, typed.',
    );
  });

  it('seed names resolve case-insensitively', async () => {
    const handle = runtime.spawn({ agent: 'Explore', prompt: 'x' });
    expect((await handle.result).agent).toBe('explore');
  });

  it('empty prompt and invalid options name the field', () => {
    expect(() => runtime.spawn({ agent: 'explore', prompt: '   ' })).toThrow(
      /prompt: prompt must not be empty/,
    );
    expect(() => runtime.spawn({ agent: 'explore', prompt: 'x', limits: { maxTurns: 0 } })).toThrow(
      /limits\.maxTurns/,
    );
    expect(() => runtime.spawn({ agent: 'explore', prompt: 'x', colour: 'red' } as never)).toThrow(
      ValidationError,
    );
    expect(() => runtime.spawn(undefined as never)).toThrow(ValidationError);
  });

  it('input failing the agent input schema', () => {
    expect(() => runtime.spawn({ agent: 'typed', prompt: 'x', input: { path: 3 } })).toThrow(
      expect.objectContaining({
        code: 'INPUT_SCHEMA_FAILED',
        message: expect.stringMatching(/path: expected a string/),
      }),
    );
    expect(() => runtime.spawn({ agent: 'typed', prompt: 'x', input: { path: 'src' } })).not.toThrow();
  });

  it('a runtime without a model, or with bad limits', () => {
    expect(() => createRuntime({} as never)).toThrow(
      expect.objectContaining({ code: 'MODEL_NOT_CONFIGURED' }),
    );
    expect(() => createRuntime({ model: scriptedModel([]), limits: { maxConcurrent: 0 } })).toThrow(
      /limits.maxConcurrent must be a positive integer/,
    );
    expect(() =>
      createRuntime({
        model: scriptedModel([]),
        agents: [{ name: '', description: 'x', systemPrompt: 'x' }],
      }),
    ).toThrow(TroupeError);
  });

  it('task failures are data: the result never rejects', async () => {
    const failing = createRuntime({
      model: scriptedModel(() => {
        throw new Error('network down');
      }),
      agents: [{ name: 'a', description: 'x', systemPrompt: 'x' }],
    });
    await expect(failing.spawn({ agent: 'a', prompt: 'x' }).result).resolves.toMatchObject({
      status: 'failed',
      error: { message: 'network down' },
    });
  });
});
