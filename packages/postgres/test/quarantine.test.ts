import type { TaskResult } from '@troupe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClusterClient, connectCluster } from '../src/index.js';
import { ClusterHarness, clusterAgents, clusterTools } from './cluster-harness.js';

let harness: ClusterHarness;
let client: ClusterClient;

beforeAll(async () => {
  harness = await ClusterHarness.start('quarantine', ['s']);
  client = await connectCluster({
    postgres: harness.url,
    agents: clusterAgents,
    tools: clusterTools,
    limits: { maxConcurrent: 5, maxPerSession: 5 },
  });
}, 120_000);

afterAll(async () => {
  await client?.close();
  await harness?.stop();
}, 60_000);

const order = (index: number, extra: object = {}) =>
  JSON.stringify({ session: 's', index, write: true, ...extra });

describe('a cluster worker and records it cannot read', () => {
  it('quarantines them: each such task ends failed naming the task and the document; the worker and the other tasks carry on', async () => {
    await harness.startWorker('w1', 'auto', 2_000);
    // A task whose snapshot is stored, left running by a worker that dies mid model call.
    const nullContext = client.spawn({
      agent: 'writer',
      prompt: order(0, { hangModel: true }),
      sessionKey: 's',
    });
    await harness.until(async () => {
      const { rows } = await harness.pool.query(
        `SELECT 1 FROM troupe.snapshots s JOIN probe_calls c ON c.task_id = s.task_id WHERE s.task_id = $1`,
        [nullContext.id],
      );
      return rows.length > 0;
    }, 'the first model call of the task');
    await harness.kill('w1');
    await harness.pool.query(
      `UPDATE troupe.snapshots SET document = jsonb_set(document::jsonb, '{snapshot,context}', 'null')::json
       WHERE task_id = $1`,
      [nullContext.id],
    );
    // A queued task whose stored spec is not a spec (its id unsafe, its fields missing).
    const badSpec = client.spawn({ agent: 'writer', prompt: order(1), sessionKey: 's' });
    await harness.until(
      async () =>
        (await harness.pool.query('SELECT 1 FROM troupe.tasks WHERE task_id = $1', [badSpec.id])).rows
          .length > 0,
      'the queued task',
    );
    await harness.pool.query(
      `UPDATE troupe.tasks SET spec = '{"taskId": "../../escaped", "agent": 7}'::json WHERE task_id = $1`,
      [badSpec.id],
    );
    const good = Array.from({ length: 3 }, (_, index) =>
      client.spawn({ agent: 'writer', prompt: order(2 + index), sessionKey: 's' }),
    );
    const w2 = await harness.startWorker('w2', 'auto', 2_000);
    const results: TaskResult[] = await Promise.all(good.map((handle) => handle.result));
    expect(results.map((result) => result.status)).toEqual(['completed', 'completed', 'completed']);
    // The snapshot the driver cannot read is set aside; the journal stands in (core's restore).
    expect(await nullContext.result).toMatchObject({ status: 'completed', output: 'done 0' });
    // The row that is not a task's ends failed, naming the task and what cannot be read.
    const failed = await badSpec.result;
    expect(failed).toMatchObject({
      taskId: badSpec.id,
      status: 'failed',
      terminateReason: 'ERROR',
      error: { code: 'PERSISTENCE_CORRUPT' },
    });
    expect(failed.error!.message).toContain(`Task ${badSpec.id} cannot be run: its row in troupe.tasks`);
    expect(failed.error!.message).toContain('spec');
    // Each ended once, in the store too; each write ran once; the worker never died.
    const finals = await harness.pool.query(
      `SELECT task_id, count(*)::int AS n, min(record->>'status') AS status FROM troupe.status_log
       WHERE record->>'status' IN ('completed', 'failed', 'cancelled') GROUP BY task_id`,
    );
    expect(finals.rows.every((row) => row.n === 1)).toBe(true);
    expect(Object.fromEntries(finals.rows.map((row) => [row.task_id, row.status]))).toEqual({
      [nullContext.id]: 'completed',
      [badSpec.id]: 'failed',
      ...Object.fromEntries(good.map((handle) => [handle.id, 'completed'])),
    });
    const row = await harness.pool.query('SELECT status, result FROM troupe.tasks WHERE task_id = $1', [
      badSpec.id,
    ]);
    expect(row.rows[0]).toEqual({ status: 'failed', result: failed });
    const writes = await harness.pool.query('SELECT task_id FROM probe_writes ORDER BY id');
    expect(writes.rows.map((row) => row.task_id).sort()).toEqual(
      [nullContext.id, ...good.map((handle) => handle.id)].sort(),
    );
    expect(w2.child.exitCode).toBeNull();
  }, 120_000);
});
