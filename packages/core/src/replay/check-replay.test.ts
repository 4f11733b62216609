import { describe, expect, it } from 'vitest';
import type { TaskResult, TaskSnapshotDocument, TaskStore } from '../persistence/types.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { createMemoryStore } from '../store/memory-store.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { firstDifference } from './first-difference.js';
import { recordScenario, replayScenarios, settle } from './replay-scenarios.js';
import { replayTask } from './replay-task.js';

const scenario = (prefix: string) => replayScenarios.find((row) => row.name.startsWith(prefix))!;

async function recorded(prefix: string) {
  const store = createMemoryStore();
  const { id } = await recordScenario(scenario(prefix), store);
  return { id, store };
}

/** `store` with parts replaced (what a divergent run, or a store reading its documents back, gives). */
function over(store: TaskStore, parts: Partial<TaskStore>): TaskStore {
  return Object.assign(Object.create(null), store, parts) as TaskStore;
}

/** `store` with its snapshot document changed by `edit`. */
function withSnapshot(store: TaskStore, edit: (document: TaskSnapshotDocument) => void): TaskStore {
  return over(store, {
    async loadSnapshot(taskId: string) {
      const document = structuredClone(await store.loadSnapshot(taskId));
      if (document) edit(document);
      return document;
    },
  });
}

const contextOf = (document: TaskSnapshotDocument) =>
  (document.snapshot as { context: Record<string, unknown> & { messages: { content: unknown }[] } }).context;

describe('replayTask checks the whole stored snapshot document and the result', () => {
  it('a stored message that differs is named with the entry that set it', async () => {
    const { id, store } = await recorded('GOAL: a tool call');
    const { steps } = await replayTask(store, id);
    const outcome = await replayTask(
      withSnapshot(store, (document) => {
        contextOf(document).messages[1]!.content = [{ type: 'text', text: 'something else' }];
      }),
      id,
    );
    expect(outcome.matches).toBe(false);
    const answered = steps.findIndex((step) => step.snapshot.context.messages.length >= 2);
    expect(outcome.first).toEqual({
      against: 'snapshot',
      path: 'context.messages[1].content[0].type',
      recorded: 'text',
      replayed: 'tool_use',
      entry: { index: answered, seq: answered, type: 'model.responded' },
    });
    expect(outcome.differences).toEqual([
      `at journal entry ${answered} (model.responded): context.messages[1].content[0].type: recorded "text", replayed "tool_use"`,
    ]);
  });

  it('a value of the task as spawned that differs blames no entry', async () => {
    const { id, store } = await recorded('GOAL: a tool call');
    const outcome = await replayTask(
      withSnapshot(store, (document) => {
        (contextOf(document).task as { agent: string }).agent = 'someone-else';
      }),
      id,
    );
    expect(outcome.first).toEqual({
      against: 'snapshot',
      path: 'context.task.agent',
      recorded: 'someone-else',
      replayed: 'explore',
    });
    expect(outcome.differences[0]).toMatch(/^in the task as spawned: context\.task\.agent/);
  });

  it('a state the replay did not end in is blamed on the event that left it', async () => {
    const { id, store } = await recorded('GOAL: one write approved');
    const outcome = await replayTask(
      withSnapshot(store, (document) => {
        (document.snapshot as { value: unknown }).value = { running: 'thinking' };
      }),
      id,
    );
    const last = outcome.steps.length - 1;
    expect(outcome.first).toMatchObject({
      path: 'value',
      recorded: { running: 'thinking' },
      replayed: 'completed',
      entry: { index: last, type: outcome.steps[last]!.event.type },
    });
  });

  it('savedAt and journalLength are compared too (nothing in the document is exempt)', async () => {
    const { id, store } = await recorded('GOAL: a tool call');
    const { steps } = await replayTask(store, id);
    const saved = await replayTask(
      withSnapshot(store, (document) => {
        document.savedAt += 5;
      }),
      id,
    );
    expect(saved.first).toMatchObject({ path: 'savedAt', entry: { index: steps.length - 1 } });
    const longer = await replayTask(
      withSnapshot(store, (document) => {
        document.journalLength += 3;
      }),
      id,
    );
    expect(longer.first).toMatchObject({
      path: 'journalLength',
      recorded: steps.length + 3,
      replayed: steps.length,
    });
  });

  it('a journal cut short is named at its last entry: it ends before the entries the snapshot reflects', async () => {
    const { id, store } = await recorded('GOAL: a tool call');
    const { entries } = await store.loadJournal(id);
    const cut = over(store, { loadJournal: async () => ({ entries: entries.slice(0, -1), warnings: [] }) });
    const outcome = await replayTask(cut, id);
    expect(outcome.first).toEqual({
      against: 'snapshot',
      path: 'journalLength',
      recorded: 4,
      replayed: 3,
      note: 'the journal ends here: the stored snapshot reflects 4 entries, the journal holds 3',
      entry: { index: 2, seq: 2, type: 'tool.finished' },
    });
  });

  it('the stored result is compared by value: another key order is the same result', async () => {
    const { id, store } = await recorded('TOKEN_LIMIT');
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
    const task = (await store.getTask(id))!;
    const reordered = over(store, {
      getTask: async () => ({ ...task, result: reorder(task.result) as TaskResult }),
    });
    expect((await replayTask(reordered, id)).matches).toBe(true);
    const changed = over(store, {
      getTask: async () => ({
        ...task,
        result: { ...task.result!, usage: { ...task.result!.usage, output: 1 } },
      }),
    });
    const outcome = await replayTask(changed, id);
    expect(outcome.first).toMatchObject({
      against: 'result',
      path: 'result.usage.output',
      recorded: 1,
      entry: { index: outcome.steps.length - 1 },
    });
  });

  it('a snapshot that cannot be read is left out, and said so', async () => {
    const { id, store } = await recorded('GOAL: a tool call');
    const outcome = await replayTask(
      over(store, {
        loadSnapshot: async () => {
          throw new Error('corrupt snapshot in t.snapshot.json');
        },
      }),
      id,
    );
    expect(outcome.matches).toBe(true);
    expect(outcome.compared).toEqual(['the stored result']);
    expect(outcome.skipped).toBe('the stored snapshot cannot be read: corrupt snapshot in t.snapshot.json');
  });

  it('a replay stopped early (until) is not compared with documents of the whole journal', async () => {
    const { id, store } = await recorded('GOAL: a tool call');
    const outcome = await replayTask(store, id, { until: 2 });
    expect(outcome.snapshot.value).toEqual({ running: 'acting' });
    expect(outcome.compared).toEqual([]);
    expect(outcome.skipped).toBe('the replay stopped after 2 of 4 journal entries');
  });

  it('a task cancelled while queued has no journal: the replay cannot reproduce its result, and says why', async () => {
    const store = createMemoryStore();
    // One slot, held by a task whose model never answers: the second task waits in the queue.
    const runtime = createRuntime({
      model: scriptedModel(() => new Promise<never>(() => {})),
      agents: [{ name: 'explore', description: 'x', systemPrompt: 'x' }],
      store,
      limits: { maxConcurrent: 1 },
    });
    runtime.spawn({ agent: 'explore', prompt: 'hold the slot' });
    const queued = runtime.spawn({ agent: 'explore', prompt: 'wait' });
    await settle();
    runtime.cancel(queued.id, 'not needed');
    expect((await queued.result).terminateReason).toBe('ABORTED');
    await runtime.shutdown();
    const outcome = await replayTask(store, queued.id);
    expect(outcome.steps).toEqual([]);
    expect(outcome.matches).toBe(false);
    expect(outcome.differences).toEqual([
      'in the task as spawned: the task ended before it started: its journal is empty, there is nothing to replay',
    ]);
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
