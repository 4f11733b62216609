import { describe, expect, it } from 'vitest';
import type { ClusterClient } from '../src/index.js';
import { type ClusterHarness, useRunningCluster } from './cluster-harness.js';

// `cancelSession` reaching tasks of one session that run on two different workers — forced, not
// by chance: each worker runs one task at a time (`workerConcurrency: 1`) and the session may run
// two at once, so its two running tasks are on w1 and w2.

let harness: ClusterHarness;
let client: ClusterClient;

useRunningCluster(
  'cancel_session',
  ['sx'],
  (h) => Promise.all([h.startWorker('w1', 'auto', 4_000, 1), h.startWorker('w2', 'auto', 4_000, 1)]),
  (started) => {
    ({ harness, client } = started);
  },
);

describe('cancelSession across workers', () => {
  it("cancels a session's running tasks on two different workers, and its queued ones, from a process that runs none", async () => {
    const handles = Array.from({ length: 6 }, (_, index) =>
      client.spawn({
        agent: 'writer',
        prompt: JSON.stringify({ session: 'sx', index, write: false, hold: 30_000 }),
        sessionKey: 'sx',
      }),
    );
    const inModelCall = async () =>
      (await harness.pool.query("SELECT DISTINCT task_id, worker FROM probe_calls WHERE session = 'sx'"))
        .rows;
    await harness.until(async () => (await inModelCall()).length === 2, 'two sx tasks in their model call');
    const running = await inModelCall();
    expect(running.map((row) => row.worker).sort()).toEqual(['w1', 'w2']);
    expect((await Promise.all(running.map((row) => harness.workerOf(row.task_id)))).sort()).toEqual([
      'w1',
      'w2',
    ]);

    expect(await client.cancelSession('sx', 'user left')).toBe(6);
    const results = await Promise.all(handles.map((handle) => handle.result));
    expect(results.map((result) => [result.status, result.terminateReason, result.error?.message])).toEqual(
      results.map(() => ['cancelled', 'ABORTED', 'user left']),
    );
    // Both model calls were aborted where they ran (the probe counts calls in flight).
    await harness.until(async () => {
      const { rows } = await harness.pool.query("SELECT running FROM probe_running WHERE scope = 'sx'");
      return rows[0].running === 0;
    }, 'the running sx model calls on both workers to be aborted');
    expect((await inModelCall()).length).toBe(2);
    expect(await client.list({ sessionKey: 'sx', active: true })).toEqual([]);
  }, 90_000);
});
