import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createMemoryStore, createRuntime, type TaskStore } from '@troupe/core';
import { scriptedModel, textReply } from '@troupe/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileStore } from './file-store.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * Collects garbage until `ref` is cleared, or gives up after a few rounds. Each round collects in
 * a fresh job before reading `ref` (a `deref` keeps its target alive until the job ends).
 */
async function collected(ref: WeakRef<object>): Promise<boolean> {
  for (let round = 0; round < 10; round++) {
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    await new Promise((resolve) => setImmediate(resolve));
    if (ref.deref() === undefined) return true;
  }
  return false;
}

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('a finished task', () => {
  it.each([
    ['memory', async () => createMemoryStore()],
    [
      'file',
      async () => {
        const dir = await mkdtemp(join(tmpdir(), 'troupe-retention-'));
        dirs.push(dir);
        return createFileStore({ dir });
      },
    ],
  ] as const)(
    'keeps its result and stored record, not its live actor (%s store)',
    async (_name, makeStore) => {
      const store: TaskStore = await makeStore();
      const actors: WeakRef<object>[] = [];
      const runtime = createRuntime({
        model: scriptedModel(() => textReply('done')),
        agents: [{ name: 'explore', description: 'Explores.', systemPrompt: 'You explore.', tools: [] }],
        store,
        inspect: (event) => {
          const ref = event.actorRef as { id?: string };
          if (event.type === '@xstate.actor' && ref.id?.startsWith('t_')) actors.push(new WeakRef(ref));
        },
      });
      const { id, result } = runtime.spawn({ agent: 'explore', prompt: 'x' });
      expect(await result).toMatchObject({ status: 'completed', output: 'done' });
      expect(actors).toHaveLength(1);

      expect(await collected(actors[0]!)).toBe(true);
      // The store still has the whole record, and the runtime the result.
      await store.flush();
      expect((await store.loadSnapshot(id))?.snapshot).toMatchObject({ status: 'done' });
      expect((await store.loadJournal(id)).entries.length).toBeGreaterThan(1);
      expect(runtime.get(id)?.result).toMatchObject({ output: 'done' });
      await runtime.shutdown();
    },
  );
});
