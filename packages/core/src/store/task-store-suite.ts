import { PersistenceError, ValidationError } from '../errors.js';
import { SCHEMA_VERSION, type TaskStore } from '../persistence/types.js';
import type { PortStore } from './port-store.js';
import {
  finishedRecord,
  journalEntryOf,
  queuedRecord,
  resultOf,
  snapshotDocumentOf,
  specOf,
  startedRecord,
} from './store-records.js';
import type { SuiteFramework } from './suite-framework.js';

/**
 * The parts of a test framework the suite uses (vitest's, passed in by the caller), named
 * structurally: the suite's types need no test framework installed.
 */
export type StoreSuiteFramework = SuiteFramework;

/**
 * How the suite reaches a store under test. `create` makes a new, empty store; `reopen` a second
 * store over the same data (another process, a page reload); `raw` writes past the store's API,
 * as a crash, an older troupe or a newer one would have left the data, so bad data can be tested.
 */
export interface StoreSuiteHarness {
  /** A new, empty store (with the `prune` every backend has). */
  create(): Promise<TaskStore & Pick<PortStore, 'prune'>>;
  /** A second store over the data of `store` (another process, a page reload). */
  reopen(store: TaskStore): Promise<TaskStore>;
  /** Called after each test with every store it created. */
  cleanup?(): Promise<void>;
  raw?: {
    /** Puts a status record into the store's storage as it is (any version, any shape). */
    putStatusRecord(store: TaskStore, value: unknown): Promise<void>;
    /** Puts a journal entry into a task's journal as it is. */
    putJournalEntry(store: TaskStore, taskId: string, value: unknown): Promise<void>;
    /** Replaces a task's snapshot document with `value` as it is. */
    putSnapshot(store: TaskStore, taskId: string, value: unknown): Promise<void>;
    /** Damages the last entry of a task's journal the way a crash mid-write would. */
    truncateJournal(store: TaskStore, taskId: string): Promise<void>;
  };
}

const byId = <T extends { spec: { taskId: string } }>(tasks: T[]) =>
  [...tasks].sort((a, b) => (a.spec.taskId < b.spec.taskId ? -1 : 1));

/**
 * The conformance suite of a `TaskStore`: the semantics every store (memory, files, IndexedDB,
 * Postgres) must share. Call it from a test file with vitest's functions and a harness.
 */
export function runTaskStoreSuite(name: string, test: StoreSuiteFramework, harness: StoreSuiteHarness): void {
  const { describe, it, expect, afterEach } = test;
  afterEach(async () => {
    await harness.cleanup?.();
  });

  async function written(fill: (store: TaskStore) => void): Promise<TaskStore> {
    const store = await harness.create();
    fill(store);
    await store.flush();
    return harness.reopen(store);
  }

  describe(`${name}: TaskStore conformance`, () => {
    it('round-trips every document through a reopened store', async () => {
      const store = await written((s) => {
        s.appendStatus(queuedRecord('t1'));
        s.appendStatus(startedRecord('t1'));
        s.appendJournal('t1', journalEntryOf(0));
        s.appendJournal('t1', journalEntryOf(1));
        s.saveSnapshot('t1', () => snapshotDocumentOf('t1', 2));
        s.saveResult({ v: SCHEMA_VERSION, result: resultOf('t1') });
        s.appendStatus(finishedRecord('t1'));
        s.appendStatus(queuedRecord('t2', 1_500));
      });
      const { tasks, warnings } = await store.loadTasks();
      expect(warnings).toEqual([]);
      expect(byId(tasks)).toEqual([
        { spec: specOf('t1'), status: 'completed', updatedAt: 2_000, result: resultOf('t1') },
        { spec: specOf('t2', 1_500), status: 'queued', updatedAt: 1_500 },
      ]);
      expect(await store.loadJournal('t1')).toEqual({
        entries: [journalEntryOf(0), journalEntryOf(1)],
        warnings: [],
      });
      expect(await store.loadSnapshot('t1')).toEqual(snapshotDocumentOf('t1', 2));
      expect(await store.loadResult('t1')).toEqual(resultOf('t1'));
      expect(await store.loadSnapshot('t2')).toBeUndefined();
      expect(await store.loadResult('t2')).toBeUndefined();
      expect(await store.loadJournal('t2')).toEqual({ entries: [], warnings: [] });
      expect(await store.getTask('t1')).toEqual({
        spec: specOf('t1'),
        status: 'completed',
        updatedAt: 2_000,
        result: resultOf('t1'),
      });
      expect(await store.getTask('nope')).toBeUndefined();
    });

    it('never replaces a final status, and ignores records of tasks it does not know', async () => {
      const store = await written((s) => {
        s.appendStatus(queuedRecord('t1'));
        s.appendStatus(finishedRecord('t1', 2_000, 'cancelled'));
        s.appendStatus(startedRecord('t1', 3_000));
        s.appendStatus(finishedRecord('t1', 3_100, 'completed'));
        s.appendStatus(startedRecord('ghost', 3_200));
      });
      const { tasks } = await store.loadTasks();
      expect(tasks.map((task) => [task.spec.taskId, task.status, task.updatedAt])).toEqual([
        ['t1', 'cancelled', 2_000],
      ]);
      expect((await store.getTask('t1'))?.result?.status).toBe('cancelled');
      expect((await store.listTasks()).tasks.map((task) => task.taskId)).toEqual(['t1']);
    });

    it('keeps the latest snapshot saved for a task', async () => {
      const store = await written((s) => {
        s.appendStatus(queuedRecord('t1'));
        s.saveSnapshot('t1', () => snapshotDocumentOf('t1', 1, 'first'));
        s.saveSnapshot('t1', () => snapshotDocumentOf('t1', 2, 'second'));
      });
      expect(await store.loadSnapshot('t1')).toEqual(snapshotDocumentOf('t1', 2, 'second'));
    });

    it('lists summaries newest first, filtered, without conversations', async () => {
      const store = await written((s) => {
        s.appendStatus(queuedRecord('a', 1_000, { agent: 'explore', sessionKey: 's1' }));
        // b is a main agent's run (depth 0).
        s.appendStatus(queuedRecord('b', 2_000, { agent: 'plan', sessionKey: 's1', depth: 0 }));
        s.appendStatus(queuedRecord('c', 3_000, { agent: 'explore', sessionKey: 's2', parentTaskId: 'a' }));
        s.appendStatus(startedRecord('c', 3_100));
        s.appendStatus(finishedRecord('a', 4_000));
      });
      const all = await store.listTasks();
      expect(all.cursor).toBeUndefined();
      expect(all.tasks.map((task) => [task.taskId, task.status])).toEqual([
        ['c', 'running'],
        ['b', 'queued'],
        ['a', 'completed'],
      ]);
      expect(all.tasks[0]).toEqual({
        taskId: 'c',
        agent: 'explore',
        description: 'Task c',
        sessionKey: 's2',
        status: 'running',
        background: false,
        depth: 1,
        parentTaskId: 'a',
        model: 'claude-haiku-5-5',
        createdAt: 3_000,
        updatedAt: 3_100,
      });
      expect(all.tasks[2]?.result).toEqual(resultOf('a'));
      expect(all.tasks.some((task) => 'messages' in task || 'spec' in task)).toBe(false);
      const ids = async (query: Parameters<TaskStore['listTasks']>[0]) =>
        (await store.listTasks(query)).tasks.map((task) => task.taskId);
      expect(await ids({ agent: 'explore' })).toEqual(['c', 'a']);
      expect(await ids({ sessionKey: 's1' })).toEqual(['b', 'a']);
      expect(await ids({ status: 'queued' })).toEqual(['b']);
      expect(await ids({ status: ['queued', 'completed'] })).toEqual(['b', 'a']);
      expect(await ids({ agent: 'explore', status: 'completed', sessionKey: 's1' })).toEqual(['a']);
      expect(await ids({ agent: 'nobody' })).toEqual([]);
      expect(await ids({ minDepth: 1 })).toEqual(['c', 'a']);
      expect(await ids({ minDepth: 1, sessionKey: 's1' })).toEqual(['a']);
      expect(await ids({ minDepth: 2 })).toEqual([]);
    });

    it('pages through many tasks with a cursor, each task exactly once, in order', async () => {
      const count = 120;
      const store = await written((s) => {
        // Some share a creation time: ties are ordered by id, newest (largest) first.
        for (let index = 0; index < count; index++)
          s.appendStatus(queuedRecord(`t${String(index).padStart(3, '0')}`, 10_000 + Math.floor(index / 3)));
      });
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await store.listTasks(cursor === undefined ? { limit: 25 } : { limit: 25, cursor });
        expect(page.tasks.length).toBeLessThanOrEqual(25);
        seen.push(...page.tasks.map((task) => task.taskId));
        cursor = page.cursor;
        pages++;
      } while (cursor !== undefined && pages < 10);
      const expected = Array.from(
        { length: count },
        (_, index) => `t${String(count - 1 - index).padStart(3, '0')}`,
      );
      expect(seen).toEqual(expected);
      expect(pages).toBe(5);
    });

    it('refuses a bad limit or cursor with a ValidationError', async () => {
      const store = await harness.create();
      await expect(store.listTasks({ limit: 0 })).rejects.toBeInstanceOf(ValidationError);
      await expect(store.listTasks({ limit: 1.5 })).rejects.toBeInstanceOf(ValidationError);
      await expect(store.listTasks({ cursor: 'not a cursor' })).rejects.toBeInstanceOf(ValidationError);
      await expect(store.listTasks({ minDepth: 0.5 })).rejects.toBeInstanceOf(ValidationError);
    });

    it('prunes finished tasks that ended before the cutoff, with their documents, and keeps the rest', async () => {
      const store = await harness.create();
      store.appendStatus(queuedRecord('old'));
      store.appendJournal('old', journalEntryOf(0));
      store.saveSnapshot('old', () => snapshotDocumentOf('old', 1));
      store.saveResult({ v: SCHEMA_VERSION, result: resultOf('old') });
      store.appendStatus(finishedRecord('old', 2_000));
      store.appendStatus(queuedRecord('new', 1_000));
      store.appendStatus(finishedRecord('new', 9_000));
      store.appendStatus(queuedRecord('running', 1_000));
      store.appendStatus(startedRecord('running', 1_100));
      await store.flush();
      expect(await store.prune({ olderThan: 5_000 })).toBe(1);
      const reopened = await harness.reopen(store);
      expect(byId((await reopened.loadTasks()).tasks).map((task) => task.spec.taskId)).toEqual([
        'new',
        'running',
      ]);
      expect(await reopened.getTask('old')).toBeUndefined();
      expect(await reopened.loadResult('old')).toBeUndefined();
      expect(await reopened.loadSnapshot('old')).toBeUndefined();
      expect((await reopened.loadJournal('old')).entries).toEqual([]);
      expect((await reopened.listTasks()).tasks.map((task) => task.taskId).sort()).toEqual([
        'new',
        'running',
      ]);
    });

    if (!harness.raw) return;
    const raw = harness.raw;

    it('reads version-1 documents, upgraded: journal event names become noun.verb', async () => {
      const store = await harness.create();
      const { graceMs: _none, ...v1Spec } = specOf('old');
      await raw.putStatusRecord(store, {
        v: 1,
        taskId: 'old',
        event: 'task.queued',
        status: 'queued',
        at: 1_000,
        spec: v1Spec,
      });
      await raw.putStatusRecord(store, {
        v: 1,
        taskId: 'old',
        event: 'task.started',
        status: 'running',
        at: 1_100,
      });
      await raw.putJournalEntry(store, 'old', {
        v: 1,
        seq: 0,
        event: { type: 'START', at: 1_100, deadline: 301_100 },
      });
      await raw.putJournalEntry(store, 'old', {
        v: 1,
        seq: 1,
        event: { type: 'TOOL_STARTED', at: 1_101, toolUseId: 'toolu_1' },
      });
      await raw.putSnapshot(store, 'old', { ...snapshotDocumentOf('old', 2), v: 1 });
      const reopened = await harness.reopen(store);
      const { tasks, warnings } = await reopened.loadTasks();
      expect(warnings).toEqual([]);
      expect(tasks).toEqual([{ spec: v1Spec, status: 'running', updatedAt: 1_100 }]);
      expect((await reopened.loadJournal('old')).entries).toEqual([
        { v: SCHEMA_VERSION, seq: 0, event: { type: 'task.started', at: 1_100, deadline: 301_100 } },
        { v: SCHEMA_VERSION, seq: 1, event: { type: 'tool.started', at: 1_101, toolUseId: 'toolu_1' } },
      ]);
      expect(await reopened.loadSnapshot('old')).toEqual(snapshotDocumentOf('old', 2));
    });

    it('skips a status record of an unknown version with a warning, and loads the other tasks', async () => {
      const store = await harness.create();
      store.appendStatus(queuedRecord('good'));
      await store.flush();
      await raw.putStatusRecord(store, { ...queuedRecord('future'), v: 99 });
      const reopened = await harness.reopen(store);
      const { tasks, warnings } = await reopened.loadTasks();
      expect(tasks.map((task) => task.spec.taskId)).toEqual(['good']);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.code).toBe('PERSISTENCE_VERSION');
      expect(warnings[0]?.message).toMatch(/version 99/);
    });

    it('refuses a snapshot of an unknown version or shape with a PersistenceError naming the task', async () => {
      const store = await harness.create();
      store.appendStatus(queuedRecord('t1'));
      store.appendStatus(queuedRecord('t2'));
      await store.flush();
      await raw.putSnapshot(store, 't1', { ...snapshotDocumentOf('t1', 1), v: 99 });
      await raw.putSnapshot(store, 't2', { v: SCHEMA_VERSION, taskId: 't2' });
      const reopened = await harness.reopen(store);
      const future = await reopened.loadSnapshot('t1').catch((error: unknown) => error);
      expect(future).toBeInstanceOf(PersistenceError);
      expect(future).toMatchObject({ code: 'PERSISTENCE_VERSION' });
      expect(String((future as Error).message)).toContain('t1');
      const broken = await reopened.loadSnapshot('t2').catch((error: unknown) => error);
      expect(broken).toMatchObject({ code: 'PERSISTENCE_CORRUPT' });
      expect(String((broken as Error).message)).toContain('t2');
      expect((await reopened.loadTasks()).tasks).toHaveLength(2);
    });

    it('loads a truncated journal up to the damage, with a warning', async () => {
      const store = await harness.create();
      store.appendStatus(queuedRecord('t1'));
      for (let seq = 0; seq < 3; seq++) store.appendJournal('t1', journalEntryOf(seq));
      await store.flush();
      await raw.truncateJournal(store, 't1');
      const reopened = await harness.reopen(store);
      const { entries, warnings } = await reopened.loadJournal('t1');
      expect(entries).toEqual([journalEntryOf(0), journalEntryOf(1)]);
      expect(warnings.length).toBeGreaterThan(0);
      expect(warnings[0]?.code).toBe('PERSISTENCE_CORRUPT');
      expect(await reopened.loadSnapshot('t1')).toBeUndefined();
    });
  });
}
