import { describe, expect, it } from 'vitest';
import { createRuntime } from '../runtime/create-runtime.js';
import { createMemoryStore } from '../store/memory-store.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { cancelStoredTask } from './cancel-stored-task.js';

describe('cancelStoredTask', () => {
  it('ends a stored, unfinished task as cancelled: listed so, with its result, and never restored', async () => {
    const store = createMemoryStore();
    // A model that never answers: the task stays unfinished in the store.
    const model = scriptedModel(() => new Promise<never>(() => {}));
    const first = createRuntime({
      model,
      store,
      agents: [{ name: 'a', description: 'A.', systemPrompt: 'A.' }],
    });
    const { id } = first.spawn({ agent: 'a', prompt: 'Do it', sessionKey: 's' });
    await first.shutdown({ keepTasks: true });
    const stored = await store.getTask(id);
    expect(stored?.status).toMatch(/^(queued|running)$/);
    const requestsBefore = model.requests.length;

    const result = cancelStoredTask(store, stored!.spec, 'Cancelled from the command line.', 5_000);
    expect(result).toMatchObject({
      taskId: id,
      status: 'cancelled',
      terminateReason: 'ABORTED',
      error: { code: 'ABORTED', message: 'Cancelled from the command line.' },
    });
    expect(await store.getTask(id)).toMatchObject({ status: 'cancelled', result });
    expect(await store.loadResult(id)).toEqual(result);

    const second = createRuntime({
      model,
      store,
      agents: [{ name: 'a', description: 'A.', systemPrompt: 'A.' }],
    });
    expect((await second.restore()).restored).toEqual([]);
    expect(model.requests).toHaveLength(requestsBefore);
    await second.shutdown();
  });
});
