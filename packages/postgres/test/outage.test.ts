import { createRuntime, PersistenceError } from '@troupe/core';
import { prepareTask, taskPlannerOf } from '@troupe/core/internal';
import { queuedRecord } from '@troupe/core/store';
import { scriptedModel, textReply } from '@troupe/core/testing';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../src/index.js';
import { useTestCluster } from './test-cluster.js';

const cluster = useTestCluster();
const planner = createRuntime({
  model: scriptedModel(() => textReply('unused')),
  agents: [{ name: 'explore', description: 'explores', systemPrompt: 'explore' }],
});

afterAll(async () => {
  await planner.shutdown();
});

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 30_000;
  while (!(await check().catch(() => false))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the Postgres store while the server is away', () => {
  it('keeps what is written during an outage, writes it unasked once the server is back, and says so when read', async () => {
    const url = await cluster.createDatabase('outage');
    const store = await openPostgresStore({ url });
    const probe = new pg.Pool({ connectionString: url, max: 1 });
    probe.on('error', () => {});
    try {
      // Fast: connections cut, commits kept (the throwaway server runs without synchronous_commit).
      await cluster.stop('fast');
      const { spec } = prepareTask(
        taskPlannerOf(planner),
        { agent: 'explore', prompt: 'x', sessionKey: 's1' },
        't_outage',
      );
      store.appendStatus(queuedRecord(spec));
      await expect(store.flush()).rejects.toThrow(PersistenceError);
      const reading = await store.getTask('t_outage').catch((error: unknown) => error);
      expect(reading).toBeInstanceOf(PersistenceError);
      expect((reading as Error).message).toMatch(/task store at postgres:\/\/.*is unreachable/);

      await cluster.start();
      // Nobody flushes again: the store retries on its own.
      await until(
        async () =>
          (await probe.query("SELECT 1 FROM troupe.tasks WHERE task_id = 't_outage'")).rowCount === 1,
        'the kept record to be written',
      );
      expect(await store.getTask('t_outage')).toMatchObject({
        status: 'queued',
        spec: { taskId: 't_outage' },
      });
      const log = await probe.query(
        "SELECT count(*)::int AS n FROM troupe.status_log WHERE task_id = 't_outage'",
      );
      expect(log.rows[0].n).toBe(1);
    } finally {
      await probe.end();
      await store.close();
    }
  }, 90_000);

  it('survives its connection being cut while a client is checked out between queries (a crash of the worker before)', async () => {
    const url = await cluster.createDatabase('cut');
    const store = await openPostgresStore({ url });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const client = await store.pool.connect();
      const { rows } = await client.query('SELECT pg_backend_pid() AS pid');
      // What a Postgres restart does to every connection: the server ends it, between queries.
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await expect(client.query('SELECT 1')).rejects.toThrow();
      client.release(true);
      expect(await store.getTask('nothing')).toBeUndefined();
    } finally {
      await admin.end();
      await store.close();
    }
  });

  it('a restore while the server is away is a clear error naming the store, and works once it is back', async () => {
    const url = await cluster.createDatabase('restore_outage');
    const store = await openPostgresStore({ url });
    const runtime = createRuntime({
      model: scriptedModel(() => textReply('unused')),
      agents: [{ name: 'explore', description: 'explores', systemPrompt: 'explore' }],
      store,
    });
    try {
      await cluster.stop('fast');
      const refused = await runtime.restore().catch((error: unknown) => error);
      expect(PersistenceError.isInstance(refused)).toBe(true);
      expect(refused).toMatchObject({ code: 'PERSISTENCE_FAILED' });
      expect((refused as Error).message).toMatch(
        /^Could not connect to the task store at postgres:\/\/.*restore_outage to take its restore lock: /,
      );
      await cluster.start();
      expect(await runtime.restore()).toEqual({ restored: [], warnings: [] });
    } finally {
      await runtime.shutdown();
    }
  }, 90_000);
});
