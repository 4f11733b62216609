import { createRuntime, defineTool, type ModelRequest, PersistenceError } from '@troupe/core';
import { scriptedModel, textReply, toolReply } from '@troupe/core/testing';
import * as v from 'valibot';
import { afterEach, expect, it } from 'vitest';
import { createIndexedDbStore } from '../src/index.js';
import { closeStores, freshStore } from './indexeddb-harness.js';

// Two runtimes of one page (as two tabs would) restoring one IndexedDB store: the Web Lock lets
// one resume its tasks; the other is refused, so a write tool never runs twice.

afterEach(closeStores);

const agent = {
  name: 'marker',
  description: 'Appends once',
  systemPrompt: 'Append.',
  tools: ['append_marker'],
};

const answered = (request: ModelRequest) =>
  request.messages.some(
    (message) =>
      Array.isArray(message.content) && message.content.some((block) => block.type === 'tool_result'),
  );

/** Calls the write tool once, then says done. */
const markerModel = () =>
  scriptedModel((request) => (answered(request) ? textReply('done') : toolReply('append_marker', {})));

/** Never answers: the task stays unfinished with its first model call in flight, as a closed tab leaves it. */
const hangingModel = () =>
  scriptedModel(
    (_request, { signal }) =>
      new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
  );

function markerRuntime(
  store: ReturnType<typeof createIndexedDbStore>,
  calls: string[],
  label: string,
  model = markerModel(),
) {
  const appendMarker = defineTool({
    name: 'append_marker',
    description: 'Appends a marker',
    access: 'write',
    input: v.object({}),
    execute: async () => {
      calls.push(label);
      return 'appended';
    },
  });
  return createRuntime({ model, agents: [agent], tools: [appendMarker], approval: 'auto', store });
}

it('two runtimes restoring one IndexedDB store: one resumes the task and runs its write tool once, the other gets PERSISTENCE_LOCKED', async () => {
  const seedStore = await freshStore();
  const calls: string[] = [];
  const seed = markerRuntime(seedStore, calls, 'seed', hangingModel());
  const { id } = seed.spawn({ agent: 'marker', prompt: 'append once' });
  await expect.poll(() => seed.get(id)?.status).toBe('running');
  await seed.shutdown({ keepTasks: true });

  const firstStore = createIndexedDbStore({ name: seedStore.name });
  const secondStore = createIndexedDbStore({ name: seedStore.name });
  const first = markerRuntime(firstStore, calls, 'first');
  const second = markerRuntime(secondStore, calls, 'second');
  const outcomes = await Promise.allSettled([first.restore(), second.restore()]);
  const winner = outcomes.findIndex((outcome) => outcome.status === 'fulfilled');
  expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
  expect((outcomes[winner] as PromiseFulfilledResult<{ restored: string[] }>).value.restored).toEqual([id]);
  const refusal = (outcomes[1 - winner] as PromiseRejectedResult).reason;
  expect(PersistenceError.isInstance(refusal)).toBe(true);
  expect(refusal.code).toBe('PERSISTENCE_LOCKED');
  expect(refusal.message).toContain(`The IndexedDB task store "${seedStore.name}"`);
  expect(refusal.message).toMatch(/is held by client \S+ of this origin/);
  const holder = [first, second][winner]!;
  expect(await holder.result(id)).toMatchObject({ status: 'completed', output: 'done' });
  expect(calls).toEqual([winner === 0 ? 'first' : 'second']);
  await Promise.all([first.shutdown(), second.shutdown()]);
});
