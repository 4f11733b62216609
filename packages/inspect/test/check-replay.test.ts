import type { TaskSnapshotDocument, TaskStore } from '@troupe/core';
import { firstDifference } from '@troupe/core/internal';
import { describe, expect, it } from 'vitest';
import { replayTimeline } from '../src/replay/replay-timeline.js';
import { scenarios } from './fixtures.js';

/** The store with its snapshot of `taskId` changed by `edit` (what a divergent run would leave). */
function withSnapshot(store: TaskStore, edit: (snapshot: Record<string, unknown>) => void): TaskStore {
  return Object.assign(Object.create(null), store, {
    async loadSnapshot(taskId: string): Promise<TaskSnapshotDocument | undefined> {
      const document = await store.loadSnapshot(taskId);
      if (!document) return undefined;
      const snapshot = structuredClone(document.snapshot) as Record<string, unknown>;
      edit(snapshot);
      return { ...document, snapshot };
    },
  });
}

describe('checkReplay (through replayTimeline)', () => {
  for (const [key, make] of Object.entries(scenarios)) {
    it(`${key}: the replay equals the whole stored snapshot (state, status, every context field) and the result`, async () => {
      const run = await make();
      const id = run.results[0]!.taskId;
      const stored = await run.store.loadSnapshot(id);
      expect(stored?.journalLength).toBeGreaterThan(0);
      const { check } = await replayTimeline(run.store, id);
      expect(check.first).toBeUndefined();
      expect(check.exact).toBe(true);
      expect(check.compared).toEqual([
        `the stored snapshot after ${stored!.journalLength} journal entries`,
        'the stored result',
      ]);
    });
  }

  it('names the first differing value and the journal entry whose event made it differ', async () => {
    const run = await scenarios.goal!();
    const id = run.results[0]!.taskId;
    const { outcome } = await replayTimeline(run.store, id);
    // The model's first answer (a tool call) is the conversation's second message.
    const tampered = withSnapshot(run.store, (snapshot) => {
      const messages = (snapshot.context as { messages: { content: unknown }[] }).messages;
      messages[1]!.content = [{ type: 'text', text: 'something else' }];
    });
    const { check } = await replayTimeline(tampered, id);
    expect(check.exact).toBe(false);
    const answered = outcome.steps.find((step) => step.snapshot.context.messages.length >= 2)!;
    expect(check.first).toMatchObject({
      against: 'snapshot',
      path: 'context.messages[1].content[0].type',
      recorded: 'text',
      replayed: 'tool_use',
      entry: { seq: answered.seq, type: answered.event.type },
    });
  });

  it('a value that never changed in the replay comes from the task spec: no entry is blamed', async () => {
    const run = await scenarios.goal!();
    const id = run.results[0]!.taskId;
    const tampered = withSnapshot(run.store, (snapshot) => {
      (snapshot.context as { task: { agent: string } }).task.agent = 'someone-else';
    });
    const { check } = await replayTimeline(tampered, id);
    expect(check.first).toEqual({
      against: 'snapshot',
      path: 'context.task.agent',
      recorded: 'someone-else',
      replayed: 'explore',
    });
  });

  it('a state the replay did not reach is the first difference, blamed on the event that left it', async () => {
    const run = await scenarios.approvals!();
    const id = run.results[0]!.taskId;
    const tampered = withSnapshot(run.store, (snapshot) => {
      snapshot.value = { running: 'thinking' };
    });
    const { check, outcome } = await replayTimeline(tampered, id);
    const last = outcome.steps.at(-1)!;
    expect(check.first).toMatchObject({
      path: 'value',
      recorded: { running: 'thinking' },
      replayed: 'completed',
      entry: { seq: last.seq, type: last.event.type },
    });
  });

  it('the stored result is compared by value: its fields in another order (a store that parses its documents) are the same result', async () => {
    const run = await scenarios.goal!();
    const id = run.results[0]!.taskId;
    const reorder = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reorder)
        : value && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([key, item]) => [key, reorder(item)]),
            )
          : value;
    const reordered = Object.assign(Object.create(null), run.store, {
      loadTasks: async () => {
        const loaded = await run.store.loadTasks();
        return {
          ...loaded,
          tasks: loaded.tasks.map((task) => (task.result ? { ...task, result: reorder(task.result) } : task)),
        };
      },
      loadResult: async (taskId: string) => reorder(await run.store.loadResult(taskId)),
    }) as TaskStore;
    const { check } = await replayTimeline(reordered, id);
    expect(check.first).toBeUndefined();
    expect(check.exact).toBe(true);
    // A value that differs is still found, whatever the order.
    const changed = Object.assign(Object.create(null), reordered, {
      loadTasks: async () => {
        const loaded = await reordered.loadTasks();
        return {
          ...loaded,
          tasks: loaded.tasks.map((task) =>
            task.result
              ? { ...task, result: { ...task.result, usage: { ...task.result.usage, output: 1 } } }
              : task,
          ),
        };
      },
    }) as TaskStore;
    const differs = await replayTimeline(changed, id);
    expect(differs.check.first).toMatchObject({
      against: 'result',
      path: 'result.usage.output',
      recorded: 1,
    });
  });

  it('a snapshot that reflects more entries than the journal holds is a difference', async () => {
    const run = await scenarios.goal!();
    const id = run.results[0]!.taskId;
    const store = Object.assign(Object.create(null), run.store, {
      async loadSnapshot(taskId: string) {
        const document = await run.store.loadSnapshot(taskId);
        return document && { ...document, journalLength: document.journalLength + 3 };
      },
    }) as TaskStore;
    const { check, outcome } = await replayTimeline(store, id);
    expect(check.first).toEqual({
      against: 'snapshot',
      path: 'journal',
      recorded: `${outcome.steps.length + 3} entries`,
      replayed: `${outcome.steps.length} entries`,
    });
  });

  it('a snapshot that cannot be read is left out, and said so', async () => {
    const run = await scenarios.goal!();
    const id = run.results[0]!.taskId;
    const store = Object.assign(Object.create(null), run.store, {
      loadSnapshot: async () => {
        throw new Error('corrupt snapshot in t.snapshot.json');
      },
    }) as TaskStore;
    const { check } = await replayTimeline(store, id);
    expect(check.exact).toBe(true);
    expect(check.compared).toEqual(['the stored result']);
    expect(check.skipped).toBe('the stored snapshot cannot be read: corrupt snapshot in t.snapshot.json');
  });
});

describe('firstDifference', () => {
  it('walks objects in order, then arrays by index, and names the path', () => {
    expect(firstDifference({ a: 1, b: [1, { c: 'x' }] }, { a: 1, b: [1, { c: 'y' }] })).toMatchObject({
      text: 'b[1].c',
      recorded: 'x',
      replayed: 'y',
    });
    expect(firstDifference({ a: [1] }, { a: [1, 2] })).toMatchObject({ text: 'a[1]', replayed: 2 });
    expect(firstDifference({ a: 1 }, { a: 1, extra: true })).toMatchObject({ text: 'extra' });
    expect(firstDifference({ a: { b: null } }, { a: { b: null } })).toBeUndefined();
    expect(firstDifference(1, 2)).toMatchObject({ text: '(the whole value)' });
  });
});
