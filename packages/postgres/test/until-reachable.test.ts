import { queuedRecord } from '@troupe/core/store';
import { describe, expect, it } from 'vitest';
import { claimTask } from '../src/cluster/claim-task.js';
import { isUnreachable, untilReachable } from '../src/cluster/until-reachable.js';
import { openPostgresStore } from '../src/index.js';
import { useTestCluster } from './test-cluster.js';

const cluster = useTestCluster();

const spec = {
  taskId: 't_claim',
  agent: 'writer',
  description: 'd',
  prompt: 'p',
  sessionKey: 's',
  depth: 1,
  background: true,
  announce: false,
  model: 'm',
  system: 's',
  tools: [],
  limits: { maxTurns: 5, tokenBudget: 1_000, timeoutMs: 60_000 },
  messages: [{ role: 'user' as const, content: 'p' }],
  createdAt: 1,
};

describe("a worker's claim while the server is away", () => {
  it('is tried again until the server is back, then claims the task (a bare claim rejects, and DBOS records a workflow that throws as ERROR: its task never ends)', async () => {
    const url = await cluster.createDatabase('claim_outage');
    const store = await openPostgresStore({ url });
    try {
      store.appendStatus(queuedRecord(spec));
      await store.flush();
      await cluster.stop('fast');
      await expect(claimTask(store.pool, 't_claim', 'w1')).rejects.toThrow();
      let retrying!: () => void;
      const retried = new Promise<void>((resolve) => {
        retrying = resolve;
      });
      const waits: number[] = [];
      const claiming = untilReachable(
        () => claimTask(store.pool, 't_claim', 'w1'),
        () => false,
        (ms) => {
          waits.push(ms);
          retrying();
          return new Promise((resolve) => setTimeout(resolve, 20));
        },
      );
      await retried;
      await cluster.start();
      expect(await claiming).toMatchObject({ task: { spec: { taskId: 't_claim' }, status: 'queued' } });
      expect(waits[0]).toBe(100);
      const owner = await store.pool.query("SELECT worker_id FROM troupe.tasks WHERE task_id = 't_claim'");
      expect(owner.rows).toEqual([{ worker_id: 'w1' }]);
    } finally {
      await store.close();
    }
  }, 90_000);

  it('a statement the server refuses is thrown at once; retrying stops once the worker stops', async () => {
    const url = await cluster.createDatabase('claim_refused');
    const store = await openPostgresStore({ url });
    try {
      let attempts = 0;
      const refused = await untilReachable(
        () => {
          attempts++;
          return store.pool.query('SELECT * FROM troupe.nothing_here');
        },
        () => false,
      ).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: '42P01' });
      expect(attempts).toBe(1);
      expect(isUnreachable(refused)).toBe(false);
      expect(isUnreachable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(
        true,
      );
      expect(isUnreachable(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(true);
      expect(isUnreachable(new Error('Connection terminated unexpectedly'))).toBe(true);
      let stopped = false;
      attempts = 0;
      const gaveUp = await untilReachable(
        async () => {
          attempts++;
          throw new Error('Connection terminated unexpectedly');
        },
        () => stopped,
        async () => {
          stopped = attempts >= 3;
        },
      ).catch((error: unknown) => error);
      expect(gaveUp).toBeInstanceOf(Error);
      expect(attempts).toBe(4);
    } finally {
      await store.close();
    }
  }, 60_000);
});
