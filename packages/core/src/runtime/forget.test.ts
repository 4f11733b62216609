import { describe, expect, it } from 'vitest';
import type { TaskStore } from '../persistence/types.js';
import { createMemoryStore } from '../store/memory-store.js';
import { textReply } from '../testing/scripted-model.js';
import { fixtureRuntime, hang, settle } from './test-fixtures.js';

describe('runtime.forget', () => {
  it('forgets an ended task only; a later restore brings the store copy back', async () => {
    const memory = createMemoryStore();
    let dropping = false;
    // A store that stops recording (as a cluster worker's store does for a task it gave up).
    const store: TaskStore = {
      ...memory,
      appendStatus: (record) => (dropping ? undefined : memory.appendStatus(record)),
      appendJournal: (taskId, entry) => (dropping ? undefined : memory.appendJournal(taskId, entry)),
      saveSnapshot: (taskId, produce) => (dropping ? undefined : memory.saveSnapshot(taskId, produce)),
      saveResult: (document) => (dropping ? undefined : memory.saveResult(document)),
    };
    let calls = 0;
    const { runtime } = fixtureRuntime(
      (_request, { signal }) => (++calls === 1 ? hang(signal) : textReply('done again')),
      { store },
    );
    const { id, result } = runtime.spawn({ agent: 'explore', prompt: 'x' });
    await settle();
    expect(runtime.forget(id)).toBe(false);
    expect(runtime.forget('unknown')).toBe(false);
    dropping = true;
    runtime.cancel(id, 'given up');
    expect(await result).toMatchObject({ status: 'cancelled' });
    dropping = false;
    expect(runtime.forget(id)).toBe(true);
    expect(runtime.get(id)).toBeUndefined();
    expect(runtime.list()).toEqual([]);

    expect((await runtime.restore()).restored).toEqual([id]);
    expect(await runtime.result(id)).toMatchObject({ status: 'completed', output: 'done again' });
    await runtime.shutdown();
  });
});
