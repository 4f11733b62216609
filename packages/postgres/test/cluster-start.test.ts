import { scriptedModel, textReply } from '@troupe/core/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectCluster, DATABASE_SCHEMA_VERSION, openPostgresStore, startWorker } from '../src/index.js';
import { startTestCluster, type TestCluster } from '../src/testing/index.js';
import { clusterAgents, clusterTools } from './cluster-harness.js';

let cluster: TestCluster;
const model = scriptedModel(() => textReply('unused'));

beforeAll(async () => {
  cluster = await startTestCluster();
}, 60_000);
afterAll(async () => {
  await cluster?.destroy();
});

describe('starting a worker or a client on a bad database', () => {
  it('refuses a bad connection string, a missing database and a newer schema with a clear error, writing nothing', async () => {
    await expect(startWorker({ postgres: 'localhost:5432', model })).rejects.toThrow(
      /Not a Postgres connection string/,
    );
    await expect(
      startWorker({ postgres: cluster.url('nope'), model, heartbeatMs: 500, deadAfterMs: 900 }),
    ).rejects.toThrow('startWorker: deadAfterMs must be at least twice heartbeatMs (1000 ms; got 900).');
    await expect(startWorker({ postgres: cluster.url('nope'), model, heartbeatMs: 0 })).rejects.toThrow(
      /heartbeatMs must be a positive number/,
    );
    await expect(connectCluster({ postgres: cluster.url('nope') })).rejects.toThrow(
      /The database "nope" does not exist/,
    );
    const refused = startWorker({ postgres: 'postgres://troupe:hunter2@127.0.0.1:1/troupe', model });
    await expect(refused).rejects.toThrow(/connection refused/);
    await expect(refused).rejects.not.toThrow(/hunter2/);

    const url = await cluster.createDatabase('newer');
    const store = await openPostgresStore({ url });
    const newer = DATABASE_SCHEMA_VERSION + 1;
    await store.pool.query("UPDATE troupe.meta SET value = $1 WHERE key = 'schema_version'", [String(newer)]);
    await store.close();
    for (const start of [
      () => startWorker({ postgres: url, model }),
      () => connectCluster({ postgres: url }),
    ])
      await expect(start()).rejects.toMatchObject({
        code: 'PERSISTENCE_VERSION',
        message: expect.stringContaining(`version ${newer}, written by a newer @troupe/postgres`),
      });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // DBOS's tables were not created and no worker registered itself.
      expect((await client.query("SELECT to_regnamespace('dbos') AS found")).rows[0].found).toBeNull();
      expect((await client.query('SELECT count(*)::int AS n FROM troupe.workers')).rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
  }, 60_000);
});

describe('a client of a cluster with no worker running', () => {
  it('queues tasks under ids in creation order with ~100 random bits, and cancels them while queued', async () => {
    const client = await connectCluster({
      postgres: await cluster.createDatabase('idle'),
      agents: clusterAgents,
      tools: clusterTools,
    });
    try {
      const handles = Array.from({ length: 3 }, (_, index) =>
        client.spawn({ agent: 'writer', prompt: `p${index}`, sessionKey: 's1' }),
      );
      const ids = handles.map((handle) => handle.id);
      expect([...ids].sort()).toEqual(ids);
      // Prefix: time and a counter (ordering); then 20 base-36 characters of crypto randomness.
      for (const id of ids) expect(id).toMatch(/^t_[0-9a-z]{8,}[0-9a-z]{4}[0-9a-z]{20}$/);
      expect(new Set(ids.map((id) => id.slice(-20))).size).toBe(3);
      expect(await client.cancelSession('s1', 'nobody runs them')).toBe(3);
      const results = await Promise.all(handles.map((handle) => handle.result));
      expect(results.map((result) => [result.status, result.error?.message])).toEqual(
        ids.map(() => ['cancelled', 'nobody runs them']),
      );
      expect(await client.list({ active: true })).toEqual([]);
    } finally {
      await client.close();
    }
  }, 60_000);
});
