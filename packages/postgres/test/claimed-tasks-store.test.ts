import { createMemoryStore, createRuntime, PersistenceError, type TaskStore } from '@troupe/core';
import { scriptedModel, textReply } from '@troupe/core/testing';
import { describe, expect, it } from 'vitest';
import { ClaimedTasksStore } from '../src/cluster/claimed-tasks-store.js';

const agents = [{ name: 'helper', description: 'helps', systemPrompt: 'Help.', tools: [] }];

/** A memory store holding one running task (its model call was in flight), as a dead worker leaves it. */
async function storeWithRunningTask(): Promise<{ store: TaskStore; taskId: string }> {
  const store = createMemoryStore();
  let called!: () => void;
  const calledOnce = new Promise<void>((resolve) => {
    called = resolve;
  });
  const runtime = createRuntime({
    model: scriptedModel((_request, { signal }) => {
      called();
      return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    }),
    agents,
    store,
  });
  const { id } = runtime.spawn({ agent: 'helper', prompt: 'help' });
  await calledOnce;
  await runtime.shutdown({ keepTasks: true });
  return { store, taskId: id };
}

/** `store`, whose journal and snapshot reads fail `failures` times as an unreachable server's do. */
function unreachableFor(store: TaskStore, failures: number): TaskStore & { attempts: number } {
  const flaky = Object.create(store) as TaskStore & { attempts: number };
  flaky.attempts = 0;
  const fail = () => {
    flaky.attempts++;
    if (flaky.attempts <= failures)
      throw new PersistenceError(
        'PERSISTENCE_FAILED',
        'The task store at postgres://db/troupe is unreachable or refused a read: Connection terminated unexpectedly',
      );
  };
  flaky.loadJournal = async (taskId) => {
    fail();
    return store.loadJournal(taskId);
  };
  flaky.loadSnapshot = async (taskId) => {
    fail();
    return store.loadSnapshot(taskId);
  };
  return flaky;
}

describe("a worker's claimed-tasks store", () => {
  it('reads a task again while the server is unreachable mid-restore: the task resumes instead of failing as corrupt', async () => {
    const { store, taskId } = await storeWithRunningTask();
    const flaky = unreachableFor(store, 3);
    const waits: number[] = [];
    const claims = new ClaimedTasksStore(
      flaky,
      () => false,
      async (ms) => {
        waits.push(ms);
      },
    );
    const task = (await store.loadTasks()).tasks.find((stored) => stored.spec.taskId === taskId)!;
    expect(task.status).toBe('running');
    const runtime = createRuntime({ model: scriptedModel([textReply('back')]), agents, store: claims });
    claims.claim(task);
    const { restored } = await runtime.restore({ taskIds: [taskId] });
    expect(restored).toEqual([taskId]);
    expect(await runtime.result(taskId)).toMatchObject({ status: 'completed', output: 'back' });
    expect(waits).toEqual([100, 200, 400]);
    await runtime.shutdown();
  });

  it('passes a corrupt document on at once, and gives up retrying once the worker stops', async () => {
    const corrupt = new PersistenceError('PERSISTENCE_CORRUPT', 'Task t1: its snapshot cannot be read.');
    const base = createMemoryStore();
    const store = Object.create(base) as TaskStore;
    store.loadSnapshot = async () => {
      throw corrupt;
    };
    expect(await new ClaimedTasksStore(store).loadSnapshot('t1').catch((error: unknown) => error)).toBe(
      corrupt,
    );
    let stopped = false;
    const flaky = unreachableFor(base, 100);
    const claims = new ClaimedTasksStore(
      flaky,
      () => stopped,
      async () => {
        stopped = flaky.attempts >= 2;
      },
    );
    const failure = await claims.loadJournal('t1').catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'PERSISTENCE_FAILED' });
    expect(flaky.attempts).toBe(3);
  });
});
