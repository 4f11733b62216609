import { describe, expect, it } from 'vitest';
import type { TaskStore } from '../persistence/types.js';
import { createMemoryStore } from '../store/memory-store.js';
import { textReply } from '../testing/scripted-model.js';
import { fixtureRuntime, hang, settle } from './test-fixtures.js';

/** A store whose `lockForRestore` says `elsewhere` runs those tasks (as the file store's owners do). */
async function storeWithOwnedTask() {
  const store = createMemoryStore();
  const first = fixtureRuntime((_request, { signal }) => hang(signal), { store });
  const { id } = first.runtime.spawn({ agent: 'explore', prompt: 'owned' });
  await settle();
  await first.runtime.shutdown({ keepTasks: true });
  const elsewhere = new Set([id]);
  let asked = 0;
  const owned: TaskStore = {
    ...store,
    lockForRestore: async () => {
      asked++;
      return { warnings: [], runElsewhere: [...elsewhere] };
    },
  };
  return { id, owned, elsewhere, asked: () => asked };
}

describe('restore() and tasks another live runtime runs', () => {
  it('resumes them once their runtime is gone, checking every ownerCheckMs on the runtime clock', async () => {
    const { id, owned, elsewhere, asked } = await storeWithOwnedTask();
    const second = fixtureRuntime(() => textReply('resumed'), { store: owned });
    expect(await second.runtime.restore({ ownerCheckMs: 1_000 })).toEqual({ restored: [], warnings: [] });
    expect(second.runtime.get(id)).toBeUndefined();
    second.clock.advance(1_000);
    await settle();
    expect(asked()).toBe(2);
    expect(second.runtime.get(id)).toBeUndefined();
    elsewhere.clear();
    second.clock.advance(1_000);
    await settle();
    expect(second.runtime.get(id)?.status).toBeDefined();
    expect(await second.runtime.result(id)).toMatchObject({ status: 'completed', output: 'resumed' });
    // Nothing left to watch: no more checks.
    second.clock.advance(10_000);
    await settle();
    expect(asked()).toBe(3);
    await second.runtime.shutdown();
  });

  it('asks a store that has tasksRunElsewhere on each check, and locks and loads only once one is gone', async () => {
    const { id, owned, elsewhere, asked } = await storeWithOwnedTask();
    let checked = 0;
    const cheap: TaskStore = {
      ...owned,
      tasksRunElsewhere: async (taskIds) => {
        checked++;
        return taskIds.filter((taskId) => elsewhere.has(taskId));
      },
    };
    const second = fixtureRuntime(() => textReply('resumed'), { store: cheap });
    await second.runtime.restore({ ownerCheckMs: 1_000 });
    for (let round = 0; round < 3; round++) {
      second.clock.advance(1_000);
      await settle();
    }
    expect([checked, asked()]).toEqual([3, 1]);
    elsewhere.clear();
    second.clock.advance(1_000);
    await settle();
    expect([checked, asked()]).toEqual([4, 2]);
    expect(await second.runtime.result(id)).toMatchObject({ status: 'completed', output: 'resumed' });
    await second.runtime.shutdown();
  });

  it('stops watching at shutdown, and never with ownerCheckMs 0', async () => {
    const { owned, asked } = await storeWithOwnedTask();
    const second = fixtureRuntime(() => textReply('resumed'), { store: owned });
    await second.runtime.restore({ ownerCheckMs: 1_000 });
    expect(second.clock.pending).toBe(1);
    await second.runtime.shutdown({ keepTasks: true });
    expect(second.clock.pending).toBe(0);
    second.clock.advance(5_000);
    await settle();
    expect(asked()).toBe(1);

    const third = fixtureRuntime(() => textReply('resumed'), { store: owned });
    await third.runtime.restore({ ownerCheckMs: 0 });
    expect(third.clock.pending).toBe(0);
    await expect(third.runtime.restore({ ownerCheckMs: -1 })).rejects.toThrow('ownerCheckMs');
    await third.runtime.shutdown({ keepTasks: true });
  });
});
