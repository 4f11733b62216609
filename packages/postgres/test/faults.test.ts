import type { ApprovalRequest } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import type { ClusterClient } from '../src/index.js';
import { type ClusterHarness, useRunningCluster } from './cluster-harness.js';

const SESSIONS = ['a', 'b', 'c'];
let harness: ClusterHarness;
let client: ClusterClient;

// Approvals are left to clients: nobody sits at a worker.
useRunningCluster(
  'faults',
  SESSIONS,
  (h) => Promise.all([h.startWorker('f1', 'ask'), h.startWorker('f2', 'ask')]),
  (started) => {
    ({ harness, client } = started);
  },
);

const order = (session: string, index: number, extra: object = {}) =>
  JSON.stringify({ session, index, ...extra });

/** How many final status records each of `ids` has. */
async function finals(ids: string[]): Promise<number[]> {
  const { rows } = await harness.pool.query(
    `SELECT task_id, count(*)::int AS n FROM troupe.status_log
     WHERE record->>'status' IN ('completed', 'failed', 'cancelled') AND task_id = ANY($1) GROUP BY task_id`,
    [ids],
  );
  const counts = new Map(rows.map((row) => [row.task_id as string, row.n as number]));
  return ids.map((id) => counts.get(id) ?? 0);
}

describe('a cluster through faults', () => {
  it('carries on when Postgres restarts under it: running tasks finish once, no worker is taken for dead', async () => {
    const handles = Array.from({ length: 8 }, (_, index) =>
      client.spawn({
        agent: 'writer',
        prompt: order(SESSIONS[index % 2]!, index, { hold: 1_500 }),
        sessionKey: SESSIONS[index % 2]!,
      }),
    );
    await harness.until(async () => {
      const { rows } = await harness.pool.query("SELECT running FROM probe_running WHERE scope = '*'");
      return rows[0].running >= 2;
    }, 'tasks in their model call');
    // A restart (fast shutdown: connections cut; the throwaway server runs without
    // synchronous_commit, so a crash could lose its last commits: not a fault of troupe's).
    await harness.cluster.stop('fast');
    await harness.cluster.start();

    const results = await Promise.all(handles.map((handle) => handle.result));
    expect(results.map((result) => `${result.status}:${String(result.output)}`)).toEqual(
      handles.map((_, index) => `completed:done ${index}`),
    );
    expect(await finals(handles.map((handle) => handle.id))).toEqual(handles.map(() => 1));
    // Each task ran on one worker: neither survivor of the restart took the other's tasks over.
    const { rows } = await harness.pool.query(
      'SELECT task_id, count(DISTINCT worker)::int AS n FROM probe_calls WHERE task_id = ANY($1) GROUP BY task_id',
      [handles.map((handle) => handle.id)],
    );
    expect(rows.map((row) => row.n)).toEqual(handles.map(() => 1));
    expect([...harness.workers.keys()].sort()).toEqual(['f1', 'f2']);
    expect(await client.list({ active: true })).toEqual([]);
  }, 120_000);

  it('stops a running task whose cancellation notice was lost: its worker reads the request at its heartbeat', async () => {
    const handle = client.spawn({
      agent: 'writer',
      prompt: order('b', 9, { hold: 30_000 }),
      sessionKey: 'b',
    });
    await harness.until(async () => {
      const { rows } = await harness.pool.query('SELECT 1 FROM probe_calls WHERE task_id = $1', [handle.id]);
      return rows.length === 1;
    }, 'the task in its model call');
    // What cancel() records, without the notification that goes with it (as if the listener were
    // reconnecting when it was sent).
    await harness.pool.query('UPDATE troupe.tasks SET cancel_requested = $2 WHERE task_id = $1', [
      handle.id,
      'notice lost',
    ]);
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'cancelled', terminateReason: 'ABORTED' });
    expect(result.error?.message).toBe('notice lost');
    expect(await finals([handle.id])).toEqual([1]);
  }, 60_000);

  it('asks a pending approval again after its worker is SIGKILLed; approved from a client, the write runs once', async () => {
    const requests: ApprovalRequest[] = [];
    client.on('approval.requested', (request) => requests.push(request));
    const handle = client.spawn({ agent: 'writer', prompt: order('c', 1, { write: true }), sessionKey: 'c' });
    await harness.until(async () => requests.some((request) => request.taskId === handle.id), 'the approval');
    const holder = await harness.workerOf(handle.id);
    await harness.kill(holder);
    const survivor = [...harness.workers.keys()][0]!;

    await harness.until(
      async () => requests.filter((request) => request.taskId === handle.id).length === 2,
      'the approval asked again by the survivor',
    );
    expect(await harness.workerOf(handle.id)).toBe(survivor);
    const again = requests.filter((request) => request.taskId === handle.id)[1]!;
    expect(again).toMatchObject({ tool: 'save', access: 'write', input: { note: 'n1' } });
    const before = await harness.pool.query('SELECT 1 FROM probe_writes WHERE task_id = $1', [handle.id]);
    expect(before.rowCount).toBe(0);

    await client.approve(again.id);
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'completed', output: 'done 1', toolCalls: 1 });
    const writes = await harness.pool.query('SELECT worker FROM probe_writes WHERE task_id = $1', [
      handle.id,
    ]);
    expect(writes.rows).toEqual([{ worker: survivor }]);
    expect(await finals([handle.id])).toEqual([1]);
  }, 120_000);
});
