import { createRuntime, type TaskResult, type TaskSnapshotDocument } from '@troupe/core';
import { prepareTask, taskPlannerOf } from '@troupe/core/internal';
import { SCHEMA_VERSION } from '@troupe/core/store';
import { scriptedModel, textReply } from '@troupe/core/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore, type PostgresTaskStore } from '../src/index.js';
import { useTestCluster } from './test-cluster.js';

const cluster = useTestCluster();
let store: PostgresTaskStore;
let url: string;
let tasks = 0;
const planner = createRuntime({
  model: scriptedModel(() => textReply('unused')),
  agents: [{ name: 'explore', description: 'explores', systemPrompt: 'explore' }],
});

beforeAll(async () => {
  url = await cluster.createDatabase('batches');
  store = await openPostgresStore({ url });
}, 60_000);
afterAll(async () => {
  await store?.close();
  await planner.shutdown();
});

/** A queued task in the store; returns its id. */
async function queued(): Promise<string> {
  const taskId = `t${++tasks}`;
  const { spec } = prepareTask(
    taskPlannerOf(planner),
    { agent: 'explore', prompt: 'x', sessionKey: 's' },
    taskId,
  );
  store.appendStatus({ v: SCHEMA_VERSION, taskId, event: 'task.queued', status: 'queued', at: 1, spec });
  await store.flush();
  return taskId;
}

const result = (taskId: string, status: TaskResult['status'], output: string): TaskResult => ({
  taskId,
  agent: 'explore',
  status,
  terminateReason: status === 'completed' ? 'GOAL' : 'ABORTED',
  output,
  turns: 1,
  toolCalls: 0,
  durationMs: 1,
  model: 'scripted',
  usage: { input: 0, output: 0, total: 0 },
});

const final = (taskId: string, status: 'completed' | 'cancelled', output: string) => ({
  v: SCHEMA_VERSION,
  taskId,
  event: `task.${status}` as const,
  status,
  at: 2,
  result: result(taskId, status, output),
});

const logged = async (taskId: string) =>
  (
    await store.pool.query(
      "SELECT record->>'status' AS status FROM troupe.status_log WHERE task_id = $1 ORDER BY id",
      [taskId],
    )
  ).rows.map((row) => row.status);

describe('a write batch', () => {
  it('logs one final record per task when one batch holds two (a retried batch)', async () => {
    const id = await queued();
    store.appendStatus({ v: SCHEMA_VERSION, taskId: id, event: 'task.started', status: 'running', at: 2 });
    store.appendStatus(final(id, 'completed', 'first'));
    store.appendStatus(final(id, 'cancelled', 'second'));
    await store.flush();
    expect(await logged(id)).toEqual(['queued', 'running', 'completed']);
    expect(await store.getTask(id)).toMatchObject({ status: 'completed', result: { output: 'first' } });
  });

  it("drops a fenced worker's writes for a task another worker claimed, and says which", async () => {
    const fencedStore = await openPostgresStore({ url });
    const told: string[][] = [];
    fencedStore.fenceAs('w1', (ids) => told.push(ids));
    const heard = await listen('fence_test');
    try {
      const [theirs, mine, unclaimed] = [await queued(), await queued(), await queued()];
      await store.pool.query('UPDATE troupe.tasks SET worker_id = $2 WHERE task_id = $1', [theirs, 'w2']);
      await store.pool.query('UPDATE troupe.tasks SET worker_id = $2 WHERE task_id = $1', [mine, 'w1']);
      for (const id of [theirs, mine, unclaimed]) {
        writeEverything(fencedStore, id);
        fencedStore.notify('fence_test', id, `ended ${id}`);
      }
      await fencedStore.flush();
      expect(told).toEqual([[theirs]]);
      // Its notifications go with its writes: dropped for the task another worker holds.
      await expect.poll(() => heard.payloads).toEqual([`ended ${mine}`, `ended ${unclaimed}`]);
      for (const id of [mine, unclaimed]) await expectWritten(id, true);
      await expectWritten(theirs, false);
    } finally {
      await heard.close();
      await fencedStore.close();
    }
  });

  it('sends its notifications when it commits, in order, and keeps them through a failed attempt', async () => {
    const heard = await listen('batch_test');
    const id = await queued();
    try {
      writeEverything(store, id);
      for (const n of [1, 2, 3]) store.notify('batch_test', id, `event ${n}`);
      await store.flush();
      await expect.poll(() => heard.payloads).toEqual(['event 1', 'event 2', 'event 3']);
      // A listener hearing of the task's end reads it.
      await expectWritten(id, true);
      // A batch the server refuses (a journal entry of another type) is kept, notifications too.
      await store.pool.query('ALTER TABLE troupe.journal ADD CONSTRAINT no_seq_7 CHECK (seq <> 7)');
      store.appendJournal(id, {
        v: SCHEMA_VERSION,
        seq: 7,
        event: { type: 'task.steered', at: 3, text: 'x' },
      });
      store.notify('batch_test', id, 'event 4');
      await expect(store.flush()).rejects.toThrow(/Could not write to the task store/);
      await store.pool.query('ALTER TABLE troupe.journal DROP CONSTRAINT no_seq_7');
      await store.flush();
      await expect.poll(() => heard.payloads).toEqual(['event 1', 'event 2', 'event 3', 'event 4']);
    } finally {
      await heard.close();
    }
  });

  it('serialises with a claim: a write waits for a claim in progress and is fenced once it commits', async () => {
    const fencedStore = await openPostgresStore({ url });
    const told: string[][] = [];
    fencedStore.fenceAs('w1', (ids) => told.push(ids));
    const claimer = await store.pool.connect();
    try {
      const id = await queued();
      await store.pool.query('UPDATE troupe.tasks SET worker_id = $2 WHERE task_id = $1', [id, 'w1']);
      await claimer.query('BEGIN');
      await claimer.query('SELECT 1 FROM troupe.tasks WHERE task_id = $1 FOR UPDATE', [id]);
      await claimer.query('UPDATE troupe.tasks SET worker_id = $2 WHERE task_id = $1', [id, 'w2']);
      writeEverything(fencedStore, id);
      const flushed = fencedStore.flush();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(told).toEqual([]);
      await claimer.query('COMMIT');
      await flushed;
      expect(told).toEqual([[id]]);
      await expectWritten(id, false);
    } finally {
      claimer.release();
      await fencedStore.close();
    }
  });

  it('refuses a snapshot that cannot be produced, once, and commits the rest of the batch', async () => {
    const id = await queued();
    store.appendStatus({ v: SCHEMA_VERSION, taskId: id, event: 'task.started', status: 'running', at: 2 });
    store.saveSnapshot(id, () => {
      throw new Error('cyclic context');
    });
    await expect(store.flush()).rejects.toThrow(
      `Could not produce the snapshot of task ${id}: cyclic context`,
    );
    await store.flush();
    expect(await logged(id)).toEqual(['queued', 'running']);
    expect(await store.loadSnapshot(id)).toBeUndefined();
  });

  it("applies a client's writes (no worker id) whoever claimed the task", async () => {
    const id = await queued();
    await store.pool.query('UPDATE troupe.tasks SET worker_id = $2 WHERE task_id = $1', [id, 'w2']);
    writeEverything(store, id);
    await store.flush();
    await expectWritten(id, true);
  });
});

/** A start, a journal entry, a snapshot, a final record and a result for `taskId`. */
function writeEverything(target: PostgresTaskStore, taskId: string): void {
  target.appendStatus({ v: SCHEMA_VERSION, taskId, event: 'task.started', status: 'running', at: 2 });
  target.appendJournal(taskId, {
    v: SCHEMA_VERSION,
    seq: 0,
    event: { type: 'task.started', at: 2, deadline: 9 },
  });
  target.saveSnapshot(
    taskId,
    () => ({ v: SCHEMA_VERSION, taskId, journalLength: 1, snapshot: {} }) as unknown as TaskSnapshotDocument,
  );
  const ended = final(taskId, 'completed', 'done');
  target.appendStatus(ended);
  target.saveResult({ v: SCHEMA_VERSION, result: ended.result });
}

async function expectWritten(taskId: string, written: boolean): Promise<void> {
  const count = async (table: string) =>
    (await store.pool.query(`SELECT count(*)::int AS n FROM troupe.${table} WHERE task_id = $1`, [taskId]))
      .rows[0].n;
  expect({
    log: await logged(taskId),
    journal: await count('journal'),
    snapshots: await count('snapshots'),
    results: await count('results'),
    status: (await store.getTask(taskId))?.status,
  }).toEqual(
    written
      ? { log: ['queued', 'running', 'completed'], journal: 1, snapshots: 1, results: 1, status: 'completed' }
      : { log: ['queued'], journal: 0, snapshots: 0, results: 0, status: 'queued' },
  );
}

/** A connection listening on `channel`, collecting payloads. */
async function listen(channel: string): Promise<{ payloads: string[]; close: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const payloads: string[] = [];
  client.on('notification', (message) => payloads.push(message.payload ?? ''));
  await client.query(`LISTEN ${channel}`);
  return { payloads, close: () => client.end() };
}
