import { createRuntime } from '@troupe/core';
import { prepareTask, taskPlannerOf } from '@troupe/core/internal';
import { queuedRecord } from '@troupe/core/store';
import { scriptedModel, textReply } from '@troupe/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelTasks } from '../src/cluster/cancel-tasks.js';
import { claimTask } from '../src/cluster/claim-task.js';
import { openPostgresStore, type PostgresTaskStore } from '../src/index.js';
import { useTestCluster } from './test-cluster.js';

const cluster = useTestCluster();
let store: PostgresTaskStore;
const planner = createRuntime({
  model: scriptedModel(() => textReply('unused')),
  agents: [{ name: 'explore', description: 'explores', systemPrompt: 'explore' }],
});

beforeAll(async () => {
  store = await openPostgresStore({ url: await cluster.createDatabase('claims') });
}, 60_000);
afterAll(async () => {
  await store?.close();
  await planner.shutdown();
});

async function queue(taskId: string, sessionKey: string): Promise<void> {
  const { spec } = prepareTask(taskPlannerOf(planner), { agent: 'explore', prompt: 'x', sessionKey }, taskId);
  store.appendStatus(queuedRecord(spec));
  await store.flush();
}

const row = async (taskId: string) =>
  (
    await store.pool.query(
      'SELECT status, worker_id, cancel_requested FROM troupe.tasks WHERE task_id = $1',
      [taskId],
    )
  ).rows[0];

describe('claiming and cancelling a task', () => {
  it('ends a task nobody claimed as queued, and leaves a claimed one (whose start is not yet stored) to its worker', async () => {
    await queue('t_free', 's1');
    await queue('t_claimed', 's1');
    const claimed = await claimTask(store.pool, 't_claimed', 'w1');
    expect(claimed).toMatchObject({ task: { status: 'queued', spec: { taskId: 't_claimed' } } });

    const outcome = await cancelTasks(store.pool, { sessionKey: 's1' }, 'user left');
    expect(outcome).toEqual({ queued: ['t_free'], running: ['t_claimed'] });
    expect(await row('t_free')).toMatchObject({ status: 'cancelled', cancel_requested: 'user left' });
    expect(await row('t_claimed')).toMatchObject({
      status: 'queued',
      worker_id: 'w1',
      cancel_requested: 'user left',
    });
    expect(await store.loadResult('t_claimed')).toBeUndefined();
    // The worker that claims it again (a takeover) sees the cancellation; an ended task is not claimed.
    expect(await claimTask(store.pool, 't_claimed', 'w2')).toMatchObject({ cancelRequested: 'user left' });
    expect(await claimTask(store.pool, 't_free', 'w2')).toBeUndefined();
  }, 60_000);
});
