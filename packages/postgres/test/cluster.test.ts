import type { TaskResult } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import type { ClusterClient } from '../src/index.js';
import { type ClusterHarness, useRunningCluster } from './cluster-harness.js';

const SESSIONS = ['s0', 's1', 's2', 's3', 's4', 's5', 'sx'];
let harness: ClusterHarness;
let client: ClusterClient;

// All three start at once on a fresh database: creating the schemas must not race.
useRunningCluster(
  'cluster',
  SESSIONS,
  (h) => Promise.all([h.startWorker('w1'), h.startWorker('w2'), h.startWorker('w3')]),
  (started) => {
    ({ harness, client } = started);
  },
);

const order = (session: string, index: number, extra: object = {}) =>
  JSON.stringify({ session, index, write: true, ...extra });

describe('a cluster of 3 worker processes on Postgres + DBOS', () => {
  it('runs 300 tasks over 6 sessions within 5 globally and 2 per session, FIFO per session, each ending once', async () => {
    const events = { started: 0, completed: new Map<string, number>(), toolsFinished: 0 };
    client.on('task.started', () => events.started++);
    client.on('tool.finished', () => events.toolsFinished++);
    client.on('task.completed', (event) =>
      events.completed.set(event.taskId, (events.completed.get(event.taskId) ?? 0) + 1),
    );
    const handles = Array.from({ length: 300 }, (_, index) => {
      const session = SESSIONS[index % 6]!;
      return {
        session,
        ...client.spawn({ agent: 'writer', prompt: order(session, index), sessionKey: session }),
      };
    });
    const results: TaskResult[] = await Promise.all(handles.map((handle) => handle.result));
    expect(results.every((result) => result.status === 'completed')).toBe(true);
    expect(results.map((result) => result.output)).toEqual(handles.map((_, index) => `done ${index}`));

    const peaks = await harness.pool.query('SELECT scope, peak, running FROM probe_running ORDER BY scope');
    const peak = Object.fromEntries(peaks.rows.map((row) => [row.scope, row.peak]));
    expect(peak['*']).toBeLessThanOrEqual(5);
    expect(peak['*']).toBeGreaterThanOrEqual(3);
    for (const session of SESSIONS.slice(0, 6)) expect(peak[session]).toBeLessThanOrEqual(2);
    expect(peaks.rows.every((row) => row.running === 0)).toBe(true);

    // FIFO within a session: the order of first model calls follows submission order, up to the
    // 2 tasks a session may start together.
    const firsts = await harness.pool.query(
      'SELECT task_id, session FROM probe_calls WHERE turn = 1 ORDER BY id',
    );
    const position = new Map(handles.map((handle, index) => [handle.id, index]));
    for (const session of SESSIONS.slice(0, 6)) {
      const started = firsts.rows
        .filter((row) => row.session === session)
        .map((row) => position.get(row.task_id)!);
      const submitted = [...started].sort((a, b) => a - b);
      const displaced = started.filter((index, at) => Math.abs(submitted.indexOf(index) - at) >= 2);
      expect({ session, started, displaced }).toEqual({ session, started, displaced: [] });
    }

    // Each task ended exactly once, ran on the cluster's workers, and wrote once.
    const finals = await harness.pool.query(
      `SELECT task_id, count(*)::int AS n FROM troupe.status_log
       WHERE record->>'status' IN ('completed', 'failed', 'cancelled') GROUP BY task_id`,
    );
    expect(finals.rows).toHaveLength(300);
    expect(finals.rows.every((row) => row.n === 1)).toBe(true);
    const writes = await harness.pool.query(
      'SELECT count(*)::int AS n, count(DISTINCT (task_id, tool_use_id))::int AS d FROM probe_writes',
    );
    expect(writes.rows[0]).toEqual({ n: 300, d: 300 });
    const workers = await harness.pool.query('SELECT DISTINCT worker FROM probe_calls ORDER BY worker');
    expect(workers.rows.map((row) => row.worker)).toEqual(['w1', 'w2', 'w3']);

    // Events of every worker reached this process.
    await harness.until(async () => events.completed.size === 300, 'every task.completed event');
    expect([...events.completed.values()].every((count) => count === 1)).toBe(true);
    expect(events.started).toBe(300);
    expect(events.toolsFinished).toBe(300);

    // get and list read the cluster's store.
    const info = await client.get(handles[7]!.id);
    expect(info).toMatchObject({ id: handles[7]!.id, status: 'completed', sessionKey: 's1', toolCalls: 1 });
    const listed = await client.list({ sessionKey: 's2', limit: 3 });
    expect(listed.map((task) => task.id)).toEqual([handles[296]!.id, handles[290]!.id, handles[284]!.id]);
  }, 180_000);

  it('cancels a session from a process that runs no tasks: queued and running, on every worker', async () => {
    const handles = Array.from({ length: 20 }, (_, index) =>
      client.spawn({
        agent: 'writer',
        prompt: order('sx', index, { write: false, hold: 30_000 }),
        sessionKey: 'sx',
      }),
    );
    await harness.until(async () => {
      const { rows } = await harness.pool.query(
        "SELECT count(DISTINCT task_id)::int AS n FROM probe_calls WHERE session = 'sx'",
      );
      return rows[0].n === 2;
    }, 'two sx tasks in their model call');
    const running = await harness.pool.query("SELECT DISTINCT task_id FROM probe_calls WHERE session = 'sx'");
    expect(running.rows).toHaveLength(2);
    const count = await client.cancelSession('sx', 'user left');
    expect(count).toBe(20);
    const results = await Promise.all(handles.map((handle) => handle.result));
    expect(
      results.every((result) => result.status === 'cancelled' && result.terminateReason === 'ABORTED'),
    ).toBe(true);
    const ran = new Set(running.rows.map((row) => row.task_id));
    expect(results.map((result) => result.error?.message)).toEqual(results.map(() => 'user left'));
    expect(results.filter((result) => ran.has(result.taskId)).every((result) => result.durationMs > 0)).toBe(
      true,
    );
    await harness.until(async () => {
      const { rows } = await harness.pool.query("SELECT running FROM probe_running WHERE scope = 'sx'");
      return rows[0].running === 0;
    }, 'the running sx model calls to be aborted');
    const calls = await harness.pool.query(
      "SELECT count(DISTINCT task_id)::int AS n FROM probe_calls WHERE session = 'sx'",
    );
    expect(calls.rows[0].n).toBe(2);
    expect(await client.cancelSession('sx')).toBe(0);
    expect(await client.list({ sessionKey: 'sx', active: true })).toEqual([]);
  }, 60_000);

  it('survives SIGKILL of a worker mid model call and of another mid write tool: survivors finish every task once', async () => {
    const writes = async (taskId: string) =>
      (await harness.pool.query('SELECT worker FROM probe_writes WHERE task_id = $1', [taskId])).rows;
    const handles = Array.from({ length: 30 }, (_, index) => {
      const session = SESSIONS[index % 6]!;
      return client.spawn({
        agent: 'writer',
        prompt: order(session, 1000 + index, { hold: 20 }),
        sessionKey: session,
      });
    });
    const hung = client.spawn({
      agent: 'writer',
      prompt: order('s0', 2000, { hangModel: true }),
      sessionKey: 's0',
    });
    await harness.until(
      async () =>
        (await harness.pool.query('SELECT 1 FROM probe_once WHERE key = $1', [`model:${hung.id}`])).rowCount,
      'the hanging model call',
    );
    const first = await harness.workerOf(hung.id);
    await harness.kill(first);

    const writing = client.spawn({
      agent: 'writer',
      prompt: order('s1', 3000, { hangWrite: true }),
      sessionKey: 's1',
    });
    await harness.until(
      async () =>
        (await harness.pool.query('SELECT 1 FROM probe_once WHERE key = $1', [`write:${writing.id}`]))
          .rowCount,
      'the hanging write tool',
    );
    const second = await harness.workerOf(writing.id);
    expect(second).not.toBe(first);
    await harness.kill(second);

    const results = await Promise.all([...handles, hung, writing].map((handle) => handle.result));
    expect(results.map((result) => result.status)).toEqual(results.map(() => 'completed'));
    expect(results.at(-2)!.output).toBe('done 2000');
    // The write ran once, on the killed worker; its takeover told the model the outcome is unknown.
    expect(results.at(-1)!.output).toBe('done 3000 (write interrupted)');
    expect(await writes(writing.id)).toEqual([{ worker: second }]);
    expect([...harness.workers.keys()]).toHaveLength(1);
    // A survivor took the hung task over (it may since have been the second worker killed).
    expect(await harness.workerOf(hung.id)).not.toBe(first);
    const duplicates = await harness.pool.query(
      'SELECT task_id, tool_use_id FROM probe_writes GROUP BY task_id, tool_use_id HAVING count(*) > 1',
    );
    expect(duplicates.rows).toEqual([]);
    const finals = await harness.pool.query(
      `SELECT task_id FROM troupe.status_log WHERE record->>'status' IN ('completed', 'failed', 'cancelled')
       AND task_id = ANY($1) GROUP BY task_id HAVING count(*) = 1`,
      [results.map((result) => result.taskId)],
    );
    expect(finals.rows).toHaveLength(32);
  }, 120_000);
});
