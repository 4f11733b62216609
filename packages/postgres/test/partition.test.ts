import { replayTask } from '@troupe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClusterClient,
  connectCluster,
  openPostgresStore,
  type PostgresTaskStore,
} from '../src/index.js';
import { ClusterHarness, clusterAgents, clusterTools } from './cluster-harness.js';

const SESSIONS = ['a', 'b', 'c'];
const DEAD_AFTER_MS = 2_000;
let harness: ClusterHarness;
let client: ClusterClient;
let store: PostgresTaskStore;
/** The worker paused in the first test, and the one that took its tasks. */
let victim = '';
let survivor = '';

beforeAll(async () => {
  harness = await ClusterHarness.start('partition', SESSIONS);
  await Promise.all([
    harness.startWorker('p1', 'auto', DEAD_AFTER_MS),
    harness.startWorker('p2', 'auto', DEAD_AFTER_MS),
  ]);
  client = await connectCluster({
    postgres: harness.url,
    agents: clusterAgents,
    tools: clusterTools,
    limits: { maxConcurrent: 5, maxPerSession: 2 },
  });
  store = await openPostgresStore({ url: harness.url });
}, 120_000);

afterAll(async () => {
  for (const worker of harness?.workers.values() ?? []) worker.child.kill('SIGCONT');
  await store?.close();
  await client?.close();
  await harness?.stop();
}, 60_000);

const rowsOf = async (text: string, values: unknown[]) => (await harness.pool.query(text, values)).rows;

describe('a worker paused past deadAfterMs (a frozen process, a partition)', () => {
  it('loses its tasks to the survivor; resumed, its late writes are refused and it gives them up: every task ends once, no write runs twice', async () => {
    const handles = Array.from({ length: 6 }, (_, index) => {
      const session = SESSIONS[index % 3]!;
      // A model call held 1.5 s, then a write tool, then the answer.
      const prompt = JSON.stringify({ session, index, write: true, hold: 1_500 });
      return client.spawn({ agent: 'writer', prompt, sessionKey: session });
    });
    const ids = handles.map((handle) => handle.id);
    // Five tasks (the global limit) in their model call, on one worker or both.
    const held = await harness.until(async () => {
      const rows = await rowsOf(
        `SELECT worker_id, array_agg(task_id) AS tasks FROM troupe.tasks
         WHERE task_id = ANY($1) AND status = 'running' AND worker_id IS NOT NULL GROUP BY worker_id`,
        [ids],
      );
      const running = rows.reduce((sum, row) => sum + row.tasks.length, 0);
      return running === 5
        ? new Map(rows.map((row) => [row.worker_id as string, row.tasks as string[]]))
        : undefined;
    }, 'five running tasks');
    const count = (worker: string) => held.get(worker)?.length ?? 0;
    [victim, survivor] = count('p1') >= count('p2') ? ['p1', 'p2'] : ['p2', 'p1'];
    const lost = held.get(victim)!.sort();
    harness.workers.get(victim)!.child.kill('SIGSTOP');

    // Silent past deadAfterMs: the survivor takes its tasks over and claims them.
    await harness.until(
      async () =>
        (
          await rowsOf('SELECT 1 FROM troupe.tasks WHERE task_id = ANY($1) AND worker_id = $2', [
            lost,
            survivor,
          ])
        ).length === lost.length,
      "the survivor's claims",
    );
    harness.workers.get(victim)!.child.kill('SIGCONT');

    const results = await Promise.all(handles.map((handle) => handle.result));
    expect(results.map((result) => `${result.status}:${String(result.output)}`)).toEqual(
      handles.map((_, index) => `completed:done ${index}`),
    );
    // The paused worker gives up every task it lost (its writes refused, or seen claimed).
    await harness.until(
      async () =>
        (await rowsOf('SELECT 1 FROM probe_lost WHERE task_id = ANY($1)', [lost])).length >= lost.length,
      'the paused worker giving its tasks up',
    );
    // (Those it was running, and any it had just claimed when it froze.)
    const given = await rowsOf('SELECT task_id, worker FROM probe_lost', []);
    expect(given.every((row) => row.worker === victim && ids.includes(row.task_id))).toBe(true);
    expect(lost.filter((taskId) => !given.some((row) => row.task_id === taskId))).toEqual([]);
    // Every task ended once and wrote once, whichever worker ran it; its journal replays to its result.
    const finals = await rowsOf(
      `SELECT task_id, count(*)::int AS n FROM troupe.status_log
       WHERE record->>'status' IN ('completed', 'failed', 'cancelled') AND task_id = ANY($1) GROUP BY task_id`,
      [ids],
    );
    expect(finals.map((row) => row.n)).toEqual(ids.map(() => 1));
    const writes = await rowsOf('SELECT task_id, count(*)::int AS n FROM probe_writes GROUP BY task_id', []);
    expect(writes.map((row) => row.n)).toEqual(ids.map(() => 1));
    for (const id of ids) expect((await replayTask(store, id)).differences).toEqual([]);
    // Alive after all, it registered again: should it die now, it would be seen dead.
    await harness.until(
      async () => (await rowsOf('SELECT 1 FROM troupe.workers WHERE worker_id = $1', [victim])).length === 1,
      'the paused worker registered again',
    );
    expect(await client.list({ active: true })).toEqual([]);
  }, 120_000);

  it('works again once back: it takes over the tasks of a worker that dies later, and claims new ones', async () => {
    expect(victim).not.toBe('');
    // Paused again, so that the survivor alone dequeues the next five tasks (held 3 s in their model call).
    harness.workers.get(victim)!.child.kill('SIGSTOP');
    const spawn = (index: number, hold: number) => {
      const session = SESSIONS[index % 3]!;
      const prompt = JSON.stringify({ session, index, write: true, hold });
      return client.spawn({ agent: 'writer', prompt, sessionKey: session });
    };
    const held = Array.from({ length: 5 }, (_, index) => spawn(index, 3_000));
    const heldIds = held.map((handle) => handle.id);
    await harness.until(
      async () =>
        (
          await rowsOf(
            "SELECT 1 FROM troupe.tasks WHERE task_id = ANY($1) AND status = 'running' AND worker_id = $2",
            [heldIds, survivor],
          )
        ).length === 5,
      'five running tasks on the survivor',
    );
    harness.workers.get(victim)!.child.kill('SIGCONT');
    // The survivor dies with them: the worker that was taken for dead must carry on alone.
    await harness.kill(survivor);
    const fresh = Array.from({ length: 2 }, (_, index) => spawn(5 + index, 5));
    const handles = [...held, ...fresh];
    const ids = handles.map((handle) => handle.id);
    const results = await Promise.all(handles.map((handle) => handle.result));
    expect(results.map((result) => `${result.status}:${String(result.output)}`)).toEqual(
      handles.map((_, index) => `completed:done ${index}`),
    );
    // Every task's last model call was made by the worker that came back; each wrote once, ended once.
    const last = await rowsOf(
      `SELECT DISTINCT ON (task_id) task_id, worker FROM probe_calls WHERE task_id = ANY($1)
       ORDER BY task_id, id DESC`,
      [ids],
    );
    expect(last.map((row) => row.worker)).toEqual(ids.map(() => victim));
    const first = await rowsOf(
      'SELECT DISTINCT ON (task_id) task_id, worker FROM probe_calls WHERE task_id = ANY($1) ORDER BY task_id, id',
      [heldIds],
    );
    expect(first.map((row) => row.worker)).toEqual(heldIds.map(() => survivor));
    const writes = await rowsOf(
      'SELECT task_id, count(*)::int AS n, min(worker) AS worker FROM probe_writes WHERE task_id = ANY($1) GROUP BY task_id',
      [ids],
    );
    expect(writes.map((row) => [row.n, row.worker])).toEqual(ids.map(() => [1, victim]));
    const finals = await rowsOf(
      `SELECT task_id, count(*)::int AS n FROM troupe.status_log
       WHERE record->>'status' IN ('completed', 'failed', 'cancelled') AND task_id = ANY($1) GROUP BY task_id`,
      [ids],
    );
    expect(finals.map((row) => row.n)).toEqual(ids.map(() => 1));
    expect(
      await rowsOf('SELECT task_id FROM troupe.tasks WHERE task_id = ANY($1) AND worker_id <> $2', [
        ids,
        victim,
      ]),
    ).toEqual([]);
    // The dead worker's row is gone (it was judged dead); the one that came back is registered.
    expect(
      (await rowsOf('SELECT worker_id FROM troupe.workers ORDER BY worker_id', [])).map(
        (row) => row.worker_id,
      ),
    ).toEqual([victim]);
  }, 120_000);
});
