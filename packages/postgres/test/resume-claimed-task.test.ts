import { createMemoryStore, createRuntime, PersistenceError, type TaskStore } from '@troupe/core';
import { scriptedModel, textReply } from '@troupe/core/testing';
import { describe, expect, it } from 'vitest';
import { resumeClaimedTask } from '../src/cluster/resume-claimed-task.js';
import { readingAgain } from '../src/cluster/while-store-away.js';

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

describe("a worker's resume of a claimed task", () => {
  it('restores it again while the server is unreachable mid-restore: the task resumes instead of failing as corrupt', async () => {
    const { store, taskId } = await storeWithRunningTask();
    expect((await store.getTask(taskId))?.status).toBe('running');
    const flaky = unreachableFor(store, 3);
    const waits: number[] = [];
    const runtime = createRuntime({ model: scriptedModel([textReply('back')]), agents, store: flaky });
    const resumed = await resumeClaimedTask(
      runtime,
      taskId,
      () => false,
      async (ms) => {
        waits.push(ms);
      },
    );
    expect(resumed).toBe(true);
    expect(await runtime.result(taskId)).toMatchObject({ status: 'completed', output: 'back' });
    expect(waits).toEqual([100, 200, 400]);
    await runtime.shutdown();
  });

  it('does not wait on a corrupt document, gives up once the worker stops, and says when the store has no such task', async () => {
    const { store, taskId } = await storeWithRunningTask();
    const corrupt = Object.create(store) as TaskStore;
    corrupt.loadSnapshot = async () => {
      throw new PersistenceError('PERSISTENCE_CORRUPT', `Task ${taskId}: its snapshot cannot be read.`);
    };
    corrupt.loadJournal = corrupt.loadSnapshot as unknown as TaskStore['loadJournal'];
    const waits: number[] = [];
    const first = createRuntime({ model: scriptedModel([]), agents, store: corrupt });
    expect(
      await resumeClaimedTask(
        first,
        taskId,
        () => false,
        async (ms) => void waits.push(ms),
      ),
    ).toBe(true);
    expect(waits).toEqual([]);
    expect(await first.result(taskId)).toMatchObject({
      status: 'failed',
      error: { code: 'PERSISTENCE_CORRUPT' },
    });
    await first.shutdown();

    const again = await storeWithRunningTask();
    let stopped = false;
    const flaky = unreachableFor(again.store, 100);
    const second = createRuntime({ model: scriptedModel([]), agents, store: flaky });
    const failure = await resumeClaimedTask(
      second,
      again.taskId,
      () => stopped,
      async () => {
        stopped = flaky.attempts >= 2;
      },
    ).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'PERSISTENCE_FAILED' });
    expect(second.get(again.taskId)).toBeUndefined();
    expect(await resumeClaimedTask(second, 'no-such-task', () => false)).toBe(false);
    await second.shutdown();
  });

  it("a worker's teams read a journal again while the server is away, and stop trying once the worker stops", async () => {
    const { store, taskId } = await storeWithRunningTask();
    const flaky = unreachableFor(store, 2);
    const journal = await readingAgain(flaky, () => false).loadJournal(taskId);
    expect(journal.entries.length).toBeGreaterThan(0);
    expect(flaky.attempts).toBe(3);
    const down = unreachableFor(store, 100);
    const failure = await readingAgain(down, () => true)
      .loadSnapshot(taskId)
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'PERSISTENCE_FAILED' });
    expect(down.attempts).toBe(1);
  });
});
