import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../persistence/memory-store.js';
import type { JournalEntry, TaskStore } from '../persistence/types.js';
import { textReply } from '../testing/scripted-model.js';
import { fixtureRuntime, hang, settle } from './test-fixtures.js';

describe('restore', () => {
  it('a journal entry of another schema version is not fed: the task fails alone, naming the entry and its version', async () => {
    const store = createMemoryStore();
    const first = fixtureRuntime((_request, { signal }) => hang(signal), { store });
    const ids = [
      first.runtime.spawn({ agent: 'explore', prompt: 'one' }).id,
      first.runtime.spawn({ agent: 'explore', prompt: 'two' }).id,
    ];
    await settle();
    await first.runtime.shutdown({ keepTasks: true });
    const [bad, good] = ids as [string, string];
    // A store of another troupe's making: it hands back an entry it did not check.
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
    const failed = await second.runtime.result(bad);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'PERSISTENCE_CORRUPT' } });
    expect(failed?.error?.message).toContain(`Task ${bad}: journal entry 0 has schema version 9`);
    expect(await second.runtime.result(good)).toMatchObject({ status: 'completed', output: 'resumed' });
  });
});
