import { createRuntime } from '@troupe/core';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgresStore } from '../src/index.js';
import { markerAgent, markerModel, markTool, seedUnfinishedTasks } from './fixtures/marker.js';
import { useTestCluster } from './test-cluster.js';

const cluster = useTestCluster();

const agents = [markerAgent];

describe('restore() of the Postgres store with records it cannot read', () => {
  it('restores the others and never throws: a null context, a bad status, a bad spec, an id that is a path', async () => {
    const url = await cluster.createDatabase('hostile');
    const marked: string[] = [];
    const mark = markTool((taskId) => marked.push(taskId));
    const seeding = await openPostgresStore({ url });
    const [nullContext, badStatus, badSpec, good] = (await seedUnfinishedTasks(seeding, 4)) as [
      string,
      string,
      string,
      string,
    ];
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(
      `UPDATE troupe.snapshots SET document = jsonb_set(document::jsonb, '{snapshot,context}', 'null')::json WHERE task_id = $1`,
      [nullContext],
    );
    await client.query(`UPDATE troupe.tasks SET status = 'sideways' WHERE task_id = $1`, [badStatus]);
    await client.query(`UPDATE troupe.tasks SET spec = '{"taskId": 7}'::json WHERE task_id = $1`, [badSpec]);
    await client.query(
      `INSERT INTO troupe.tasks (task_id, created_at, session_key, agent, status, updated_at, spec, v)
       SELECT '../../escaped', created_at + 1, session_key, agent, 'queued', updated_at,
              jsonb_set(spec::jsonb, '{taskId}', '"../../escaped"')::json, v
       FROM troupe.tasks WHERE task_id = $1`,
      [good],
    );
    await client.end();

    const store = await openPostgresStore({ url });
    const runtime = createRuntime({
      model: markerModel(),
      agents,
      tools: [mark],
      approval: 'auto',
      store,
    });
    try {
      const { restored, warnings } = await runtime.restore();
      expect(restored.sort()).toEqual([nullContext, good, '../../escaped'].sort());
      const named = warnings.map((warning) => warning.message);
      expect(named.find((message) => message.includes(badSpec))).toMatch(/its row in troupe.tasks .*spec/);
      expect(named.find((message) => message.includes(badStatus))).toMatch(
        /its row in troupe.tasks .*"sideways"/,
      );
      const results = await Promise.all(restored.map((id) => runtime.result(id)));
      expect(results.map((result) => result?.status)).toEqual(restored.map(() => 'completed'));
      expect(marked.sort()).toEqual(restored.sort());
    } finally {
      await runtime.shutdown();
    }
  }, 90_000);
});
