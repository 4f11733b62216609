// Issue #21, item 4: a 100,000-deep value in a stored snapshot or journal made `replayTask` throw
// `RangeError: Maximum call stack size exceeded`. Replay reports it instead, even from a store
// that does not check what it reads (the file store's own check is tested in test/security).
import { describe, expect, it } from 'vitest';
import type { TaskStore } from '../persistence/types.js';
import { fixtureRuntime } from '../runtime/test-fixtures.js';
import { createMemoryStore } from '../store/memory-store.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
import { replayTask } from './replay-task.js';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

async function finishedTask() {
  const store = createMemoryStore();
  const { runtime } = fixtureRuntime([toolReply('echo', { text: 'a' }), textReply('done')], { store });
  const handle = runtime.spawn({ agent: 'explore', prompt: 'x' });
  await handle.result;
  return { store, id: handle.id };
}

describe('replayTask over a store holding a 100,000-deep value', () => {
  it('a deep stored snapshot is reported as unreadable; the journal still replays', async () => {
    const { store, id } = await finishedTask();
    const stored = (await store.loadSnapshot(id))!;
    const hostile: TaskStore = {
      ...store,
      loadSnapshot: async () => ({
        ...stored,
        snapshot: { ...(stored.snapshot as object), deep: nested(100_000) },
      }),
    };
    const outcome = await replayTask(hostile, id);
    expect(outcome.result?.status).toBe('completed');
    expect(outcome.skipped).toMatch(
      new RegExp(
        `^the stored snapshot cannot be read: task ${id}'s snapshot document: it is nested more than 512 levels deep \\(at snapshot\\.deep\\[0\\]`,
      ),
    );
    expect(outcome.compared).toEqual(['the stored result']);
  });

  it('a deep journal entry stops the replay before it, with a warning naming the task and entry', async () => {
    const { store, id } = await finishedTask();
    const { entries } = await store.loadJournal(id);
    const hostile: TaskStore = {
      ...store,
      loadJournal: async () => ({
        entries: entries.map((entry, index) =>
          index === 2 ? { ...entry, event: { ...entry.event, deep: nested(100_000) } as never } : entry,
        ),
        warnings: [],
      }),
    };
    const outcome = await replayTask(hostile, id);
    expect(outcome.steps).toHaveLength(2);
    expect(outcome.journalWarnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Task ${id}: journal entry 2 cannot be read: it is nested more than 512 levels deep \\(at event\\.deep\\[0\\].*…\\); the replay stops before it\\.$`,
        ),
      ),
    ]);
    expect(outcome.matches).toBe(false);
  });
});
