import { createRuntime, defineTool, type TaskStore } from '@troupe/core';
import { storeRecords } from '@troupe/core/store';
import { scriptedModel, textReply, toolReply } from '@troupe/core/testing';
import pg from 'pg';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { DATABASE_SCHEMA_VERSION, openPostgresStore } from '../src/index.js';
import { MIGRATIONS } from '../src/store/migrations.js';
import { useTestCluster } from './test-cluster.js';

const cluster = useTestCluster();
let databases = 0;
const freshDatabase = () => cluster.createDatabase(`store_${++databases}`);

const echo = defineTool({
  name: 'echo',
  description: 'Echo',
  access: 'read',
  input: v.object({ text: v.string() }),
  execute: async ({ text }) => text,
});
const agents = [{ name: 'explore', description: 'explores', systemPrompt: 'explore', tools: ['echo'] }];
/** A runtime over `store` whose model answers `ok` at once. */
const answeringOk = (store: TaskStore) =>
  createRuntime({ model: scriptedModel(() => textReply('ok')), agents, tools: [echo], store });
const turn = (request: { messages: unknown[] }) => Math.ceil(request.messages.length / 2);

describe('Postgres TaskStore', () => {
  it('lists newest first by indexed queries, filtered and paged', async () => {
    const store = await openPostgresStore({ url: await freshDatabase() });
    const model = scriptedModel(() => textReply('ok'));
    let n = 0;
    let now = 1_000;
    const runtime = createRuntime({
      model,
      agents,
      tools: [echo],
      store,
      createId: () => `task-${String(++n).padStart(3, '0')}`,
      clock: {
        now: () => now++,
        setTimeout: (f, ms) => setTimeout(f, ms),
        clearTimeout: (t) => clearTimeout(t as never),
      },
    });
    const handles = Array.from({ length: 7 }, (_, index) =>
      runtime.spawn({ agent: 'explore', prompt: `p${index}`, sessionKey: index % 2 ? 'odd' : 'even' }),
    );
    await Promise.all(handles.map((handle) => handle.result));
    await runtime.shutdown();
    const reader = await openPostgresStore({ url: store.pool.options.connectionString! });
    const first = await reader.query({ limit: 3 });
    expect(first.tasks.map((task) => task.spec.taskId)).toEqual(['task-007', 'task-006', 'task-005']);
    const second = await reader.query({ limit: 3, cursor: first.cursor! });
    expect(second.tasks.map((task) => task.spec.taskId)).toEqual(['task-004', 'task-003', 'task-002']);
    const odd = await reader.query({ sessionKey: 'odd', status: 'completed' });
    expect(odd.tasks.map((task) => task.spec.taskId)).toEqual(['task-006', 'task-004', 'task-002']);
    expect(odd.cursor).toBeUndefined();
    expect((await reader.query({ status: 'queued' })).tasks).toEqual([]);
    await reader.close();
  });

  it('serves a page from an index however many tasks are stored', async () => {
    const store = await openPostgresStore({ url: await freshDatabase() });
    await store.pool.query(
      `INSERT INTO troupe.tasks (task_id, created_at, session_key, agent, status, updated_at, spec, v)
       SELECT 't' || i, i, 's' || (i % 10), 'explore', CASE WHEN i % 7 = 0 THEN 'queued' ELSE 'completed' END, i,
              ($1::jsonb || jsonb_build_object('taskId', 't' || i, 'createdAt', i, 'sessionKey', 's' || (i % 10)))::json, 2
       FROM generate_series(1, 100000) AS i`,
      [JSON.stringify(storeRecords.specOf('template'))],
    );
    await store.pool.query('ANALYZE troupe.tasks');
    for (const filter of [
      "WHERE session_key = 's4'",
      "WHERE status = 'queued'",
      "WHERE agent = 'explore'",
      '',
    ]) {
      const plan = await store.pool.query(
        `EXPLAIN SELECT task_id, spec, status, updated_at, result FROM troupe.tasks ${filter} ORDER BY created_at DESC, task_id DESC LIMIT 101`,
      );
      const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(text).toMatch(/Index (Only )?Scan/);
      expect(text).not.toMatch(/Sort|Seq Scan/);
    }
    const page = await store.query({ sessionKey: 's4', limit: 2 });
    expect(page.tasks.map((task) => task.spec.taskId)).toEqual(['t99994', 't99984']);
    await store.close();
  });

  it("lists a page from the specs' facts alone: a conversation it does not show is not read; a row it cannot read is left out", async () => {
    const store = await openPostgresStore({ url: await freshDatabase() });
    for (const [taskId, at] of [
      ['long', 1_000],
      ['odd', 2_000],
      ['bad', 3_000],
      ['other', 4_000],
      ['fine', 5_000],
    ] as const)
      store.appendStatus(storeRecords.queuedRecord(taskId, at, { parentTaskId: 'p1' }));
    store.appendStatus(storeRecords.finishedRecord('fine', 6_000));
    await store.flush();
    const before = await store.listTasks();
    const update = (taskId: string, set: string) =>
      store.pool.query(`UPDATE troupe.tasks SET ${set} WHERE task_id = $1`, [taskId]);
    // A conversation of 4 MB, and one that is no conversation: neither is part of a summary.
    await update(
      'long',
      `spec = (spec::jsonb || jsonb_build_object('messages', jsonb_build_array(jsonb_build_object('role', 'user', 'content', repeat('x', 4000000)))))::json`,
    );
    await update('odd', `spec = (spec::jsonb || '{"messages": 7}'::jsonb)::json`);
    // What a summary shows, unreadable: a depth that is no number; a spec of another task.
    await update('bad', `spec = (spec::jsonb || '{"depth": "deep"}'::jsonb)::json`);
    await update('other', `spec = (spec::jsonb || '{"taskId": "fine"}'::jsonb)::json`);
    const page = await store.listTasks();
    expect(page.tasks.map((task) => task.taskId)).toEqual(['fine', 'odd', 'long']);
    expect(page.tasks).toEqual(before.tasks.filter((task) => ['fine', 'odd', 'long'].includes(task.taskId)));
    expect(page.tasks[0]).toMatchObject({
      status: 'completed',
      parentTaskId: 'p1',
      result: { taskId: 'fine' },
    });
    // A filter on the depth passes over the depth that is no number (it does not fail the query).
    expect((await store.listTasks({ minDepth: 1 })).tasks).toEqual(page.tasks);
    // The whole spec is still checked where it is read: the task whose conversation is none.
    expect(await store.getTask('odd')).toBeUndefined();
    await store.close();
  });

  it('ends a task exactly once: a second final record does not replace the first', async () => {
    const store = await openPostgresStore({ url: await freshDatabase() });
    const runtime = answeringOk(store);
    const { id, result } = runtime.spawn({ agent: 'explore', prompt: 'x' });
    const final = await result;
    await store.flush();
    store.appendStatus({ v: 2, taskId: id, event: 'task.cancelled', status: 'cancelled', at: Date.now() });
    await store.flush();
    expect(await store.getTask(id)).toMatchObject({ status: 'completed', result: final });
    await runtime.shutdown();
  });

  it('closes once however many close() calls come at the same time: its pool ends once', async () => {
    const url = await freshDatabase();
    const store = await openPostgresStore({ url });
    store.appendStatus(storeRecords.queuedRecord('t1'));
    await store.lockForRestore();
    await Promise.all([store.close(), store.close()]);
    await store.close();
    expect(store.pool.ended).toBe(true);
    expect(() => store.appendStatus(storeRecords.startedRecord('t1'))).toThrow(/is closed/);
    const reader = await openPostgresStore({ url });
    expect((await reader.getTask('t1'))?.status).toBe('queued');
    await reader.close();
  });

  it('restores an unfinished task from Postgres in a new runtime', async () => {
    const url = await freshDatabase();
    const store = await openPostgresStore({ url });
    const save = defineTool({
      name: 'save',
      description: 'Save',
      access: 'write',
      input: v.object({ note: v.string() }),
      execute: async () => 'saved',
    });
    const model = scriptedModel((request) =>
      turn(request) === 1 ? toolReply('save', { note: 'n' }) : textReply('done'),
    );
    const writers = [{ name: 'writer', description: 'writes', systemPrompt: 'w', tools: ['save'] }];
    const first = createRuntime({ model, agents: writers, tools: [save], store, approval: 'ask' });
    const asked = new Promise((resolve) => first.on('approval.requested', resolve));
    const { id } = first.spawn({ agent: 'writer', prompt: 'save it' });
    await asked;
    await first.shutdown({ keepTasks: true });
    const second = createRuntime({
      model,
      agents: writers,
      tools: [save],
      store: await openPostgresStore({ url }),
      approval: 'auto',
    });
    const done = new Promise((resolve) => second.on('task.completed', resolve));
    const { restored } = await second.restore();
    expect(restored).toEqual([id]);
    await done;
    expect(second.get(id)?.result).toMatchObject({ status: 'completed', output: 'done', toolCalls: 1 });
    await second.shutdown();
  });

  it('refuses a bad connection string, a missing database and a newer schema, writing nothing', async () => {
    await expect(openPostgresStore({ url: 'not a url' })).rejects.toThrow(/Not a Postgres connection string/);
    await expect(openPostgresStore({ url: 'mysql://localhost/x' })).rejects.toThrow(/scheme mysql:/);
    await expect(
      openPostgresStore({ url: `postgres://postgres:secret@127.0.0.1:${cluster.port}` }),
    ).rejects.toThrow(/names no database/);
    await expect(openPostgresStore({ url: cluster.url('nope') })).rejects.toThrow(/"nope" does not exist/);
    const refused = openPostgresStore({ url: 'postgres://postgres:secret@127.0.0.1:1/x' });
    await expect(refused).rejects.toThrow(/connection refused/);
    await expect(refused).rejects.not.toThrow(/secret/);
    const url = await freshDatabase();
    const store = await openPostgresStore({ url });
    await store.pool.query("UPDATE troupe.meta SET value = '99' WHERE key = 'schema_version'");
    const before = await store.pool.query('SELECT count(*) FROM troupe.tasks');
    await store.close();
    await expect(openPostgresStore({ url })).rejects.toMatchObject({
      code: 'PERSISTENCE_VERSION',
      message: expect.stringMatching(/version 99, written by a newer/),
    });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    expect(
      (await client.query("SELECT value FROM troupe.meta WHERE key = 'schema_version'")).rows[0].value,
    ).toBe('99');
    expect((await client.query('SELECT count(*) FROM troupe.tasks')).rows).toEqual(before.rows);
    await client.end();
  });

  it('migrates a version-2 schema: each task row gets the version of the record that created it', async () => {
    const url = await freshDatabase();
    const store = await openPostgresStore({ url });
    const runtime = answeringOk(store);
    const { id, result } = runtime.spawn({ agent: 'explore', prompt: 'x', sessionKey: 's1' });
    await result;
    await runtime.shutdown();
    // Back to schema 2, with one more task whose log starts with a version-1 record.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query('SELECT spec FROM troupe.tasks WHERE task_id = $1', [id]);
    const { graceMs: _none, ...v1Spec } = { ...rows[0].spec, taskId: 'old' };
    await client.query(`
      ALTER TABLE troupe.tasks DROP COLUMN v;
      UPDATE troupe.meta SET value = '2' WHERE key = 'schema_version';`);
    await client.query(
      `INSERT INTO troupe.tasks (task_id, created_at, session_key, agent, status, updated_at, spec)
       VALUES ('old', 1, 's1', 'explore', 'queued', 1, $1::json)`,
      [JSON.stringify(v1Spec)],
    );
    await client.query(`INSERT INTO troupe.status_log (task_id, record) VALUES ('old', $1::json)`, [
      JSON.stringify({ v: 1, taskId: 'old', event: 'task.queued', status: 'queued', at: 1, spec: v1Spec }),
    ]);
    await client.end();

    const migrated = await openPostgresStore({ url });
    try {
      const versions = await migrated.pool.query('SELECT task_id, v FROM troupe.tasks ORDER BY created_at');
      expect(versions.rows).toEqual([
        { task_id: 'old', v: 1 },
        { task_id: id, v: 2 },
      ]);
      const { tasks, warnings } = await migrated.loadTasks();
      expect(warnings).toEqual([]);
      expect(tasks.map((task) => [task.spec.taskId, task.status])).toEqual([
        ['old', 'queued'],
        [id, 'completed'],
      ]);
    } finally {
      await migrated.close();
    }
  });
  it('migrates a schema 4 made by either text of migration 4 (as released, and as edited in place) to one write_batch', async () => {
    const countFunctions = async (client: Pick<pg.Pool, 'query'>) =>
      Number(
        (
          await client.query(
            "SELECT count(*) AS n FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'troupe' AND p.proname = 'write_batch'",
          )
        ).rows[0].n,
      );
    // As released: migrations 1..4 by hand.
    const released = await freshDatabase();
    const client = new pg.Client({ connectionString: released });
    await client.connect();
    await client.query(`CREATE SCHEMA troupe; CREATE TABLE troupe.meta (key text PRIMARY KEY, value text NOT NULL);
      INSERT INTO troupe.meta VALUES ('schema_version', '4');`);
    for (const migration of MIGRATIONS.slice(0, 4)) await client.query(migration);
    await client.end();
    // As edited: today's function already in place at version 4 (what a database made between the edit and its fix has).
    const edited = await freshDatabase();
    const made = await openPostgresStore({ url: edited });
    await made.pool.query("UPDATE troupe.meta SET value = '4' WHERE key = 'schema_version'");
    await made.close();
    for (const url of [released, edited]) {
      const store = await openPostgresStore({ url });
      try {
        const version = await store.pool.query("SELECT value FROM troupe.meta WHERE key = 'schema_version'");
        expect(version.rows[0].value).toBe(String(DATABASE_SCHEMA_VERSION));
        expect(await countFunctions(store.pool)).toBe(1);
        const runtime = answeringOk(store);
        const { id, result } = runtime.spawn({ agent: 'explore', prompt: 'x', sessionKey: 's1' });
        expect((await result).status).toBe('completed');
        await store.flush();
        expect((await store.getTask(id))?.status).toBe('completed');
        await runtime.shutdown();
      } finally {
        await store.close();
      }
    }
  });
});
