import { describe, expect, it } from 'vitest';
import { PersistenceError } from '../errors.js';
import type { RuntimeWarning } from '../events.js';
import type { JournalEntry, TaskStore } from '../persistence/types.js';
import { createMemoryStore } from '../store/memory-store.js';
import { textReply } from '../testing/scripted-model.js';
import { fixtureRuntime, hang, settle } from './test-fixtures.js';

/** Two running tasks left unfinished in a memory store, as a crash would leave them. */
async function unfinishedTasks() {
  const store = createMemoryStore();
  const first = fixtureRuntime((_request, { signal }) => hang(signal), { store });
  const ids = [
    first.runtime.spawn({ agent: 'explore', prompt: 'one' }).id,
    first.runtime.spawn({ agent: 'explore', prompt: 'two' }).id,
  ];
  await settle();
  await first.runtime.shutdown({ keepTasks: true });
  return { store, ids };
}

function endOf(runtime: ReturnType<typeof fixtureRuntime>['runtime'], id: string) {
  return runtime.result(id);
}

/** `store` with task `bad`'s snapshot context null; with `journalLost`, its journal empty too. */
async function nullContext(store: TaskStore, bad: string, journalLost = false): Promise<TaskStore> {
  const document = (await store.loadSnapshot(bad))!;
  const damaged: TaskStore = {
    ...store,
    loadSnapshot: async (taskId) =>
      taskId === bad
        ? { ...document, snapshot: { ...(document.snapshot as object), context: null } }
        : store.loadSnapshot(taskId),
  };
  if (journalLost)
    damaged.loadJournal = async (taskId) =>
      taskId === bad ? { entries: [], warnings: [] } : store.loadJournal(taskId);
  return damaged;
}

describe('restore', () => {
  it('two concurrent restore() calls share one run: each task is resumed once and ends once', async () => {
    const { store, ids } = await unfinishedTasks();
    const second = fixtureRuntime((request) => textReply(`answer to ${request.messages[0]!.content}`), {
      store,
    });
    // Before, the second call spawned each task again: "Actor with system ID … already exists"
    // stopped the supervisor (vitest reports that uncaught error as a failure of this test).
    const [one, two] = await Promise.all([second.runtime.restore(), second.runtime.restore()]);
    expect(one).toEqual({ restored: ids, warnings: [] });
    expect(two).toBe(one);
    const results = await Promise.all(ids.map((id) => endOf(second.runtime, id)));
    expect(results.map((result) => [result?.status, result?.output])).toEqual([
      ['completed', 'answer to one'],
      ['completed', 'answer to two'],
    ]);
    expect(second.model.requests).toHaveLength(2);
    // Once the first run is over, a new call runs again (and finds nothing left).
    expect(await second.runtime.restore()).toEqual({ restored: [], warnings: [] });
  });

  it('a restore() for other task ids while one runs waits for it, then runs its own', async () => {
    const { store, ids } = await unfinishedTasks();
    const second = fixtureRuntime(() => textReply('done'), { store });
    const [first, other] = await Promise.all([
      second.runtime.restore({ taskIds: [ids[0]!] }),
      second.runtime.restore({ taskIds: [ids[1]!] }),
    ]);
    expect(first.restored).toEqual([ids[0]]);
    expect(other.restored).toEqual([ids[1]]);
    expect((await Promise.all(ids.map((id) => endOf(second.runtime, id)))).map((r) => r?.status)).toEqual([
      'completed',
      'completed',
    ]);
  });

  it('restore({ taskIds }) reads the named tasks by id, never every task of the store', async () => {
    const { store, ids } = await unfinishedTasks();
    const read: string[] = [];
    const counted: TaskStore = {
      ...store,
      loadTasks: async () => {
        read.push('loadTasks');
        return store.loadTasks();
      },
      getTask: async (taskId) => {
        read.push(`getTask ${taskId}`);
        return store.getTask(taskId);
      },
    };
    const second = fixtureRuntime(() => textReply('done'), { store: counted });
    // Before, the named task was picked out of `loadTasks()`: a claim in a store of 100,000 tasks read all of them.
    expect((await second.runtime.restore({ taskIds: [ids[1]!, 'no-such-task'] })).restored).toEqual([ids[1]]);
    expect(read).not.toContain('loadTasks');
    expect(read).toEqual(expect.arrayContaining([`getTask ${ids[1]}`, 'getTask no-such-task']));
    expect((await endOf(second.runtime, ids[1]!))?.status).toBe('completed');
    expect(second.runtime.get(ids[0]!)).toBeUndefined();
  });

  it('a snapshot whose context is null: that task fails naming it and its snapshot, the other resumes', async () => {
    const { store, ids } = await unfinishedTasks();
    const [bad, good] = ids as [string, string];
    // The journal cannot stand in for it: its entries are lost.
    const damaged = await nullContext(store, bad, true);
    const second = fixtureRuntime(() => textReply('resumed'), { store: damaged });
    const warned: RuntimeWarning[] = [];
    second.runtime.on('runtime.warning', (warning) => warned.push(warning));
    const { restored } = await second.runtime.restore();
    expect(restored).toEqual([bad, good]);
    const failed = await endOf(second.runtime, bad);
    expect(failed).toMatchObject({
      status: 'failed',
      terminateReason: 'ERROR',
      error: { code: 'PERSISTENCE_CORRUPT', message: expect.stringContaining(`Task ${bad}`) },
    });
    expect(failed?.error?.message).toContain('context');
    expect(await endOf(second.runtime, good)).toMatchObject({ status: 'completed', output: 'resumed' });
    expect(warned.filter((warning) => warning.taskId === bad).map((warning) => warning.code)).toContain(
      'PERSISTENCE_CORRUPT',
    );
    // The failure is persisted as the task's result.
    expect((await store.getTask(bad))?.status).toBe('failed');
  });

  it('a snapshot whose context is null, with a journal: rebuilt from the journal, with a warning', async () => {
    const { store, ids } = await unfinishedTasks();
    const [bad, good] = ids as [string, string];
    const damaged = await nullContext(store, bad);
    const second = fixtureRuntime(() => textReply('resumed'), { store: damaged });
    const { warnings } = await second.runtime.restore();
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'PERSISTENCE_CORRUPT', message: expect.stringContaining(bad) }),
    ]);
    expect((await Promise.all(ids.map((id) => endOf(second.runtime, id)))).map((r) => r?.output)).toEqual([
      'resumed',
      'resumed',
    ]);
    expect(good).toBeDefined();
  });

  it('a journal entry of another schema version is not fed: the task fails alone, naming the entry and its version', async () => {
    const { store, ids } = await unfinishedTasks();
    const [bad, good] = ids as [string, string];
    // A store of another troupe's making: it hands back entries it did not check.
    const newer: TaskStore = {
      ...store,
      loadSnapshot: async (taskId) => (taskId === bad ? undefined : store.loadSnapshot(taskId)),
      loadJournal: async (taskId) => {
        const journal = await store.loadJournal(taskId);
        if (taskId !== bad) return journal;
        const entries = journal.entries.map((entry) => ({ ...entry, v: 9 }) as unknown as JournalEntry);
        return { ...journal, entries };
      },
    };
    const second = fixtureRuntime(() => textReply('resumed'), { store: newer });
    await second.runtime.restore();
    const failed = await endOf(second.runtime, bad);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'PERSISTENCE_CORRUPT' } });
    expect(failed?.error?.message).toContain(`Task ${bad}: journal entry 0 has schema version 9`);
    expect(await endOf(second.runtime, good)).toMatchObject({ status: 'completed', output: 'resumed' });
  });

  it('a store that cannot be reached for one task leaves it unfinished for the next restore, never failed', async () => {
    const { store, ids } = await unfinishedTasks();
    const [flaky, good] = ids as [string, string];
    let outage = true;
    const unreachable: TaskStore = {
      ...store,
      loadJournal: async (taskId) => {
        if (taskId === flaky && outage)
          throw new PersistenceError('PERSISTENCE_FAILED', 'Cannot reach the database (connection reset).');
        return store.loadJournal(taskId);
      },
    };
    const second = fixtureRuntime(() => textReply('resumed'), { store: unreachable });
    const warned: RuntimeWarning[] = [];
    second.runtime.on('runtime.warning', (warning) => warned.push(warning));
    const first = await second.runtime.restore();
    expect(first.restored).toEqual([good]);
    expect(warned).toEqual([
      expect.objectContaining({
        code: 'PERSISTENCE_FAILED',
        taskId: flaky,
        message: expect.stringMatching(/Task .* was not restored: .*connection reset.*restore\(\) again/),
      }),
    ]);
    expect((await endOf(second.runtime, good))?.status).toBe('completed');
    expect(await endOf(second.runtime, flaky)).toBeUndefined();
    outage = false;
    expect((await second.runtime.restore()).restored).toEqual([flaky]);
    expect((await endOf(second.runtime, flaky))?.status).toBe('completed');
  });

  it('a store that throws something unreadable for one task (a Proxy that throws on every trap): that task fails, restore() does not reject', async () => {
    const { store, ids } = await unfinishedTasks();
    const [bad, good] = ids as [string, string];
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        getPrototypeOf() {
          throw new Error('trap');
        },
        has() {
          throw new Error('trap');
        },
      },
    );
    const throwing: TaskStore = {
      ...store,
      loadJournal: async (taskId) => {
        if (taskId === bad) throw hostile;
        return store.loadJournal(taskId);
      },
      loadSnapshot: async (taskId) => {
        if (taskId === bad) throw hostile;
        return store.loadSnapshot(taskId);
      },
    };
    const second = fixtureRuntime(() => textReply('resumed'), { store: throwing });
    const { restored } = await second.runtime.restore();
    expect(restored).toEqual([bad, good]);
    expect((await endOf(second.runtime, bad))?.status).toBe('failed');
    expect((await endOf(second.runtime, good))?.status).toBe('completed');
  });
});
