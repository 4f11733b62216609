import { createMemoryStore, type JournalEntry, type TaskStore } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { followStoredTask } from '../src/replay/follow-task.js';
import { replayTimeline } from '../src/replay/replay-timeline.js';
import type { TimelineRecord } from '../src/timeline/types.js';
import { API_KEY, scenarios } from './fixtures.js';

/** The store as another process sees it while the task runs: the first `shown` journal entries. */
function growing(store: TaskStore) {
  const view = { shown: 0 };
  const grown: TaskStore = Object.create(store);
  grown.loadJournal = async (taskId) => {
    const journal = await store.loadJournal(taskId);
    return { ...journal, entries: journal.entries.slice(0, view.shown) };
  };
  return { store: grown, view };
}

function sessionsRenamed(records: TimelineRecord[]): unknown {
  return JSON.parse(JSON.stringify(records).replace(/"x:\d+"/g, '"x:N"'));
}

describe('followStoredTask', () => {
  for (const [key, make] of Object.entries(scenarios)) {
    it(`${key}: followed two entries at a time, it records the same timeline as the replay of the whole journal`, async () => {
      const run = await make();
      const taskId = run.results[0]!.taskId;
      run.armed.throws = true;
      const { entries } = await run.store.loadJournal(taskId);
      const { store, view } = growing(run.store);
      const records: TimelineRecord[] = [];
      const follower = followStoredTask(store, taskId, {
        onRecord: (record) => records.push(record),
        secrets: [API_KEY],
      });
      const fed: number[] = [];
      while (view.shown < entries.length) {
        view.shown = Math.min(entries.length, view.shown + 2);
        fed.push(await follower.catchUp());
      }
      expect(await follower.catchUp()).toBe(0);
      expect(fed.reduce((sum, count) => sum + count, 0)).toBe(entries.length);
      expect(follower.replayed).toBe(entries.length);
      expect(follower.done).toBe(true);
      const whole = await replayTimeline(run.store, taskId, { secrets: [API_KEY] });
      // XState numbers actors per process (`x:2`, `x:3`): the two replays differ only there.
      expect(sessionsRenamed(records)).toEqual(sessionsRenamed(whole.timeline.records));
      expect(records.length).toBe(whole.timeline.records.length);
      expect(follower.header.source).toEqual({ kind: 'replay', taskId });
      expect(JSON.stringify(records)).not.toContain(API_KEY);
    });
  }

  it('replays nothing until the store holds the task, then catches up', async () => {
    const run = await scenarios.goal!();
    const taskId = run.results[0]!.taskId;
    const empty = createMemoryStore();
    const records: TimelineRecord[] = [];
    const early = followStoredTask(empty, taskId, { onRecord: (record) => records.push(record) });
    expect(await early.catchUp()).toBe(0);
    expect(records).toEqual([]);
    const follower = followStoredTask(run.store, taskId, { onRecord: (record) => records.push(record) });
    expect(await follower.catchUp()).toBeGreaterThan(0);
    expect(follower.done).toBe(true);
  });

  it('refuses a journal entry of another schema version, naming the task and entry', async () => {
    const run = await scenarios.goal!();
    const taskId = run.results[0]!.taskId;
    const newer: TaskStore = Object.create(run.store);
    newer.loadJournal = async (id) => {
      const journal = await run.store.loadJournal(id);
      const entries = journal.entries.map((entry, index) =>
        index === 1 ? ({ ...entry, v: 9 } as unknown as JournalEntry) : entry,
      );
      return { ...journal, entries };
    };
    const follower = followStoredTask(newer, taskId, { onRecord: () => {} });
    await expect(follower.catchUp()).rejects.toThrow(
      `Task ${taskId}: journal entry 1 has schema version 9; this troupe reads version 2.`,
    );
    // A later call runs (and fails the same way) instead of waiting on the failed one forever.
    await expect(follower.catchUp()).rejects.toThrow(/schema version 9/);
    follower.stop();
  });
});
