// Issue #21, item 4: a cyclic or BigInt property in a tool result, a BigInt (or cyclic, function,
// symbol) tool input from a custom model adapter, or a tool throwing `Object.create(null)` crashed
// the file store when journaled (or the process before that). Core makes every value plain JSON
// where it enters, so the file store writes the journal, a fresh store reads it, and it replays.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, defineTool, type ModelAdapter, type ModelResponse, replayTask } from '@troupe/core';
import { createFileStore } from '@troupe/node';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

function cyclic(): Record<string, unknown> {
  const value: Record<string, unknown> = { name: 'loop' };
  value.self = value;
  return value;
}

const usage = { input: 1, output: 1 };
const done: ModelResponse = { content: [{ type: 'text', text: 'survived' }], usage };

/** Runs one task whose first model response is `first` over the tool `odd` (which runs `execute`). */
async function attack(first: unknown, execute: () => unknown = () => 'ok') {
  const dir = await mkdtemp(join(tmpdir(), 'troupe-hostile-values-'));
  dirs.push(dir);
  const store = createFileStore({ dir });
  let calls = 0;
  const model: ModelAdapter = {
    async generate() {
      calls++;
      return (calls === 1 ? first : done) as ModelResponse;
    },
  };
  const odd = defineTool({
    name: 'odd',
    description: 'Returns or throws something odd.',
    access: 'read',
    input: v.unknown(),
    execute: execute as () => string,
  });
  const runtime = createRuntime({
    model,
    tools: [odd],
    agents: [{ name: 'victim', description: 'Is attacked.', systemPrompt: 'x', tools: ['odd'] }],
    store,
    approval: 'auto',
  });
  const warnings: string[] = [];
  runtime.on('runtime.warning', (warning) => warnings.push(`${warning.code}: ${warning.message}`));
  const handle = runtime.spawn({ agent: 'victim', prompt: 'go' });
  const result = await handle.result;
  await runtime.shutdown();
  await store.close();
  // A fresh store reads what was written, and the journal replays to the recorded result.
  const reopened = createFileStore({ dir });
  const journal = await reopened.loadJournal(handle.id);
  const replay = await replayTask(reopened, handle.id);
  const messages = replay.snapshot.context.messages;
  await reopened.close();
  return { result, warnings, journal, replay, answer: JSON.stringify(messages.at(-2)) };
}

const callOdd = (input: unknown) => ({
  content: [{ type: 'tool_use', id: 'toolu_1', name: 'odd', input }],
  usage,
});

describe('the file store journals only plain JSON, whatever comes in', () => {
  it.each([
    ['a cyclic property', () => [{ type: 'text', text: 'kept', loop: cyclic() }], /kept/],
    ['a BigInt property', () => [{ type: 'text', text: 'kept', size: 10n }], /kept/],
    ['a cyclic object', () => cyclic(), /cannot be stored: a cycle at result\.self/],
    ['a BigInt object', () => ({ size: 10n }), /cannot be stored: a BigInt at result\.size/],
  ])('a tool result with %s', async (_label, output, expected) => {
    const outcome = await attack(callOdd({}), output);
    expect(outcome.result).toMatchObject({ status: 'completed', output: 'survived' });
    expect(outcome.journal.warnings).toEqual([]);
    expect(outcome.answer).toMatch(expected);
    expect(outcome.replay.matches).toBe(true);
  });

  it('a tool throwing Object.create(null)', async () => {
    const outcome = await attack(callOdd({}), () => {
      throw Object.create(null);
    });
    expect(outcome.result).toMatchObject({ status: 'completed', output: 'survived' });
    expect(outcome.answer).toMatch(/tool \\"odd\\" failed/);
    expect(outcome.replay.matches).toBe(true);
  });

  it.each([
    ['a BigInt', { n: 10n }, /a BigInt at input\.n/],
    ['a cycle', cyclic(), /a cycle at input\.self/],
    ['a function', { f: () => 1 }, /a function at input\.f/],
    ['a symbol', { s: Symbol('s') }, /a symbol at input\.s/],
  ])('a tool input from a custom adapter holding %s', async (_label, input, expected) => {
    const outcome = await attack(callOdd(input));
    expect(outcome.result).toMatchObject({ status: 'completed', output: 'survived' });
    expect(outcome.journal.warnings).toEqual([]);
    expect(outcome.answer).toMatch(expected);
    expect(outcome.warnings.join('\n')).toMatch(/TOOL_INPUT_NOT_JSON/);
    expect(outcome.replay.matches).toBe(true);
  });

  it('an adapter error whose details hold a BigInt and a cycle fails the task, and is journaled', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'troupe-hostile-values-'));
    dirs.push(dir);
    const store = createFileStore({ dir });
    const { ModelError } = await import('@troupe/core');
    const model: ModelAdapter = {
      async generate() {
        throw new ModelError('MODEL_ERROR', 'odd details', { details: { size: 10n, loop: cyclic() } });
      },
    };
    const runtime = createRuntime({
      model,
      agents: [{ name: 'victim', description: 'Is attacked.', systemPrompt: 'x' }],
      store,
    });
    const handle = runtime.spawn({ agent: 'victim', prompt: 'go' });
    const result = await handle.result;
    await runtime.shutdown();
    await store.close();
    expect(result.status).toBe('failed');
    expect(result.error?.message).toMatch(/odd details/);
    const reopened = createFileStore({ dir });
    expect((await replayTask(reopened, handle.id)).matches).toBe(true);
    await reopened.close();
  });
});
