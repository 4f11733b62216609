import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { createMemoryStore } from '../persistence/memory-store.js';
import { textReply } from '../testing/scripted-model.js';
import { fixtureRuntime } from './test-fixtures.js';

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

describe('a finished task in memory', () => {
  it('keeps its result and stored record, not its live actor', async () => {
    const store = createMemoryStore();
    const actors: WeakRef<object>[] = [];
    const { runtime } = fixtureRuntime(() => textReply('done'), {
      store,
      inspect: (event: InspectionEvent) => {
        if (event.type === '@xstate.actor' && event.actorRef.id.startsWith('t_'))
          actors.push(new WeakRef(event.actorRef));
      },
    });
    const { id, result } = runtime.spawn({ agent: 'explore', prompt: 'x' });
    expect(await result).toMatchObject({ status: 'completed', output: 'done' });
    expect(actors).toHaveLength(1);

    expect(await collected(actors[0]!)).toBe(true);
    // The store still has the whole record, and the runtime the result.
    expect((await store.loadSnapshot(id))?.snapshot).toMatchObject({ status: 'done' });
    expect((await store.loadJournal(id)).entries.length).toBeGreaterThan(1);
    expect(runtime.get(id)?.result).toMatchObject({ output: 'done' });
    await runtime.shutdown();
  });
});
