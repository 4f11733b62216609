import { subagentMachine } from '../machines/subagent-machine.js';
import type { JournalEntry, TaskStore } from '../persistence/types.js';
import type { SuiteFramework } from '../store/suite-framework.js';
import { recordScenario, replayScenarios } from './replay-scenarios.js';
import { replayTask } from './replay-task.js';

/**
 * The parts of a test framework the suite uses (vitest's, passed in by the caller), named
 * structurally: the suite's types need no test framework installed.
 */
export type ReplaySuiteFramework = SuiteFramework;

/** How the suite reaches a store under test: a new empty one, and a second one over its data. */
export interface ReplaySuiteHarness {
  /** A new, empty store. */
  create(): Promise<TaskStore>;
  /** A store over the same data, as another process would open it (the same store for memory). */
  reopen(store: TaskStore): Promise<TaskStore>;
  /** Called after each test (close and remove what `create` made). */
  cleanup?(): Promise<void>;
}

/** `store` with the journal of every task changed by `edit` (what a tampered journal reads as). */
function tampered(store: TaskStore, edit: (entries: JournalEntry[]) => JournalEntry[]): TaskStore {
  const loadJournal = async (taskId: string) => {
    const loaded = await store.loadJournal(taskId);
    return { ...loaded, entries: edit(structuredClone(loaded.entries)) };
  };
  return new Proxy(store, {
    get(target, key) {
      if (key === 'loadJournal') return loadJournal;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

/**
 * Replay conformance: every way a task can end (each terminate reason, with and without a grace
 * turn, with steering), recorded by a real runtime over the store, replays from a reopened store
 * to the whole stored snapshot document and result; a tampered journal (an event changed, dropped,
 * reordered) is named at its first differing event.
 */
export function runReplaySuite(name: string, test: ReplaySuiteFramework, harness: ReplaySuiteHarness): void {
  const { describe, it, expect, afterEach } = test;
  afterEach(async () => {
    await harness.cleanup?.();
  });

  async function recorded(index: number) {
    const store = await harness.create();
    const run = await recordScenario(replayScenarios[index]!, store, harness.reopen);
    return { ...run, store: await harness.reopen(store) };
  }

  describe(`a recorded task is stored (${name})`, () => {
    it('a task the runtime ran: its status and result, its journal in order, a versioned snapshot and the result document', async () => {
      const { id, result, store } = await recorded(
        replayScenarios.findIndex((scenario) => scenario.name === 'GOAL: a tool call, then an answer'),
      );
      expect(await store.getTask(id)).toMatchObject({
        status: 'completed',
        spec: { taskId: id, agent: 'explore' },
        result: json(result),
      });
      const journal = await store.loadJournal(id);
      expect(journal.entries.map((entry) => entry.event.type)).toEqual([
        'task.started',
        'model.responded',
        'tool.finished',
        'model.responded',
      ]);
      expect(journal.entries.every((entry, index) => entry.v === 2 && entry.seq === index)).toBe(true);
      expect(await store.loadSnapshot(id)).toMatchObject({
        v: 2,
        taskId: id,
        journalLength: 4,
        snapshot: { status: 'done', value: 'completed' },
      });
      expect(await store.loadResult(id)).toEqual(json(result));
    });
  });

  describe(`replay is exact (${name})`, () => {
    replayScenarios.forEach((scenario, index) => {
      it(`${scenario.name}: the replay equals the whole stored snapshot and the result`, async () => {
        const { id, result, store } = await recorded(index);
        expect(result.terminateReason).toBe(scenario.reason);
        const outcome = await replayTask(store, id);
        const types = outcome.steps.map((step) => step.event.type);
        expect(types.includes('task.steered')).toBe(scenario.steered);
        const states = outcome.steps.map((step) => JSON.stringify(step.snapshot.value));
        expect(states.includes('{"running":"grace"}')).toBe(scenario.grace);
        expect(outcome.differences).toEqual([]);
        expect(outcome.first).toBeUndefined();
        expect(outcome.matches).toBe(true);
        const stored = await store.loadSnapshot(id);
        expect(outcome.compared).toEqual([
          `the stored snapshot after ${stored!.journalLength} journal entries`,
          'the stored result',
        ]);
        // The whole snapshot, compared here without the check's code.
        expect(json(subagentMachine.getPersistedSnapshot(outcome.snapshot))).toEqual(json(stored!.snapshot));
        expect(stored!.journalLength).toBe(outcome.steps.length);
        expect(stored!.savedAt).toBe(outcome.snapshot.context.now);
        expect(outcome.result).toEqual(json(result));
        // Every journaled event moved the machine: what the check's "ignored event" witness relies on.
        outcome.steps.forEach((step, at) => {
          const before = at === 0 ? undefined : outcome.steps[at - 1]!.snapshot;
          const same = JSON.stringify(step.snapshot.value) === JSON.stringify(before?.value);
          expect(step.snapshot.context === before?.context && same, `entry ${at} was ignored`).toBe(false);
        });
      });
    });

    const steered = replayScenarios.findIndex((scenario) => scenario.name.startsWith('GOAL: steered twice'));

    it('an event changed: named at that entry, with the first differing value', async () => {
      const { id, store } = await recorded(steered);
      const { entries } = await store.loadJournal(id);
      const at = entries.findLastIndex((entry) => entry.event.type === 'model.responded');
      const outcome = await replayTask(
        tampered(store, (list) => {
          const event = list[at]!.event as { response: { content: { type: string; text?: string }[] } };
          event.response.content = [{ type: 'text', text: 'something else' }];
          return list;
        }),
        id,
      );
      expect(outcome.matches).toBe(false);
      expect(outcome.first).toMatchObject({
        against: 'snapshot',
        recorded: expect.any(String),
        replayed: 'something else',
        entry: { index: at, seq: at, type: 'model.responded' },
      });
      expect(outcome.first!.path).toMatch(/^context\.messages\[\d+\]\.content\[0\]\.text$/);
      expect(outcome.differences[0]).toMatch(
        new RegExp(`^at journal entry ${at} \\(model\\.responded\\): context`),
      );
    });

    it('an event dropped: named at the entry that took its place', async () => {
      const { id, store } = await recorded(steered);
      const { entries } = await store.loadJournal(id);
      const at = entries.findIndex((entry) => entry.event.type === 'model.responded');
      expect(entries.length - at).toBeGreaterThan(2);
      const outcome = await replayTask(
        tampered(store, (list) => list.filter((_entry, index) => index !== at)),
        id,
      );
      expect(outcome.matches).toBe(false);
      expect(outcome.first?.entry).toEqual({ index: at, seq: at + 1, type: entries[at + 1]!.event.type });
      expect(outcome.differences[0]).toMatch(new RegExp(`^at journal entry ${at} \\(\\S+, seq ${at + 1}\\)`));
    });

    it('two events reordered: named at the first of them', async () => {
      const { id, store } = await recorded(steered);
      const { entries } = await store.loadJournal(id);
      const at = entries.findIndex((entry) => entry.event.type === 'tool.finished');
      const outcome = await replayTask(
        tampered(store, (list) => {
          [list[at], list[at + 1]] = [list[at + 1]!, list[at]!];
          return list;
        }),
        id,
      );
      expect(outcome.matches).toBe(false);
      expect(outcome.first?.entry).toEqual({ index: at, seq: at + 1, type: entries[at + 1]!.event.type });
    });

    it("the last event's time changed: context.now differs, named at the last entry", async () => {
      const { id, store } = await recorded(steered);
      const { entries } = await store.loadJournal(id);
      const outcome = await replayTask(
        tampered(store, (list) => {
          list.at(-1)!.event.at += 1;
          return list;
        }),
        id,
      );
      const last = entries.length - 1;
      expect(outcome.first).toMatchObject({
        path: 'context.now',
        recorded: entries[last]!.event.at,
        replayed: entries[last]!.event.at + 1,
        entry: { index: last, type: entries[last]!.event.type },
      });
    });
  });
}
