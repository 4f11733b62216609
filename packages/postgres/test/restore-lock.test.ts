import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createRuntime, PersistenceError } from '@troupe/core';
import { scriptedModel } from '@troupe/core/testing';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
// The runner-process reader of @troupe/node's store tests (the same line protocol).
import {
  expectOwnerAloneFinishes,
  type RunnerProcess,
  startRunnerProcess,
} from '../../node/test/helpers/runner-process.js';
import { openPostgresStore } from '../src/index.js';
import { markerAgent, markTool, seedUnfinishedTasks } from './fixtures/marker.js';
import { useTestCluster } from './test-cluster.js';

const runnerScript = fileURLToPath(new URL('./fixtures/restore-runner.ts', import.meta.url));

const cluster = useTestCluster();
let databases = 0;
const runners: RunnerProcess[] = [];
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.kill();
});

const agents = [markerAgent];
/** The write tool as the test's own runtimes know it: it must never run in this process. */
const mark = markTool(() => {
  throw new Error('mark ran in the test process');
});

/** A fresh database with `count` unfinished tasks (their model calls were in flight), as a crash leaves them. */
async function seed(count: number): Promise<{ url: string; taskIds: string[] }> {
  const url = await cluster.createDatabase(`restore_${++databases}`);
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  await setup.query('CREATE TABLE marks (task_id text, pid int)');
  await setup.end();
  const taskIds = await seedUnfinishedTasks(await openPostgresStore({ url }), count);
  return { url, taskIds };
}

/** A runtime restoring the store at `url` in a child process (test/fixtures/restore-runner.ts). */
function startRunner(url: string, mode: 'restore' | 'spawn' = 'restore'): RunnerProcess {
  const runner = startRunnerProcess(runnerScript, [url, mode]);
  runners.push(runner);
  return runner;
}

async function marks(url: string): Promise<{ task_id: string; pid: number }[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query('SELECT task_id, pid FROM marks ORDER BY task_id')).rows;
  } finally {
    await client.end();
  }
}

describe('restore lock of the Postgres store', () => {
  it('two runtimes in two processes restoring one database: one resumes the 3 tasks, each write runs once; the other is refused naming the holder', async () => {
    const { url, taskIds } = await seed(3);
    const runners = [startRunner(url), startRunner(url)];
    const first = await Promise.all(runners.map((runner) => runner.line(1)));
    const winner = first.findIndex((output) => output.restored !== undefined);
    expect(winner).toBeGreaterThanOrEqual(0);
    const holder = runners[winner]!;
    const loser = runners[1 - winner]!;
    expect(first[winner]).toEqual({ restored: taskIds, warnings: [] });
    const refusal = first[1 - winner]!.error!;
    expect(refusal).toMatchObject({
      code: 'PERSISTENCE_LOCKED',
      details: { holder: { pid: holder.pid, host: hostname() } },
    });
    expect(refusal.message).toContain(`is being restored by process ${holder.pid} on ${hostname()}`);
    expect(refusal.message).toContain(`The task store at postgres://`);
    expect(refusal.message).toContain(new URL(url).pathname);
    for (const runner of runners) runner.go();
    expect(await holder.line(2)).toEqual({ finished: ['completed', 'completed', 'completed'] });
    await loser.stop();
    await holder.stop();
    expect(await marks(url)).toEqual(taskIds.map((task_id) => ({ task_id, pid: holder.pid })));
  }, 120_000);

  it('the lock of a killed runtime goes with its connection: the next restore takes it and resumes its tasks', async () => {
    const { url, taskIds } = await seed(1);
    const crashed = startRunner(url);
    expect((await crashed.line(1)).restored).toEqual(taskIds);
    await crashed.kill();
    const next = startRunner(url);
    expect(await next.line(1)).toEqual({ restored: taskIds, warnings: [] });
    next.go();
    expect(await next.line(2)).toEqual({ finished: ['completed'] });
    await next.stop();
    expect(await marks(url)).toEqual([{ task_id: taskIds[0], pid: next.pid }]);
  }, 120_000);

  it('in one process: a second store is refused until the first closes; the holder may lock again', async () => {
    const { url } = await seed(0);
    const first = await openPostgresStore({ url });
    const second = await openPostgresStore({ url });
    try {
      expect(await first.lockForRestore()).toEqual({ warnings: [], runElsewhere: [] });
      expect(await first.lockForRestore()).toEqual({ warnings: [], runElsewhere: [] });
      const refused = await second.lockForRestore().catch((error: unknown) => error);
      expect(PersistenceError.isInstance(refused)).toBe(true);
      expect(refused).toMatchObject({
        code: 'PERSISTENCE_LOCKED',
        details: { holder: { pid: process.pid, host: hostname() } },
      });
      await first.close();
      expect(await second.lockForRestore()).toEqual({ warnings: [], runElsewhere: [] });
    } finally {
      await first.close();
      await second.close();
    }
  }, 60_000);

  it('a lock whose connection the server ended does not crash its holder, which takes it again', async () => {
    const { url } = await seed(0);
    const first = await openPostgresStore({ url });
    const second = await openPostgresStore({ url });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const lockSessions = async () =>
      (
        await admin.query<{ pid: number }>(
          "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2 AND granted",
        )
      ).rows.map((row) => row.pid);
    try {
      await first.lockForRestore();
      const [session] = await lockSessions();
      expect(session).toBeTypeOf('number');
      await admin.query('SELECT pg_terminate_backend($1)', [session]);
      // Taken again on a new connection (the old one's 'error' must not kill this process).
      for (let waited = 0; ; waited += 50) {
        const sessions = await lockSessions();
        if (sessions.length === 1 && sessions[0] !== session) break;
        if (waited > 20_000) throw new Error('the lock was not taken again');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await second.lockForRestore().catch((error: unknown) => error)).toMatchObject({
        code: 'PERSISTENCE_LOCKED',
        details: { holder: { pid: process.pid } },
      });
    } finally {
      await admin.end();
      await first.close();
      await second.close();
    }
  }, 60_000);
});

describe('tasks another live runtime runs on the Postgres store', () => {
  it('are not resumed by a restore in another process: the task ends once, where it runs', async () => {
    const { url } = await seed(0);
    const owner = startRunner(url, 'spawn');
    const { spawned } = await owner.line(1);
    expect(spawned).toMatch(/^t_/);
    const restorer = startRunner(url);
    expect(await restorer.line(1)).toEqual({
      restored: [],
      warnings: [
        {
          code: 'PERSISTENCE_TASK_OWNED',
          message: expect.stringContaining(
            `Task ${spawned} is not resumed: process ${owner.pid} on ${hostname()}, which runs it, still has the task store at postgres://`,
          ),
        },
      ],
    });
    await expectOwnerAloneFinishes(owner, restorer);
    expect(await marks(url)).toEqual([{ task_id: spawned, pid: owner.pid }]);
  }, 120_000);

  it('are resumed once their process is gone (killed mid-task)', async () => {
    const { url } = await seed(0);
    const owner = startRunner(url, 'spawn');
    const { spawned } = await owner.line(1);
    await owner.kill();
    const restorer = startRunner(url);
    expect(await restorer.line(1)).toEqual({ restored: [spawned], warnings: [] });
    restorer.go();
    expect(await restorer.line(2)).toEqual({ finished: ['completed'] });
    await restorer.stop();
    expect(await marks(url)).toEqual([{ task_id: spawned, pid: restorer.pid }]);
  }, 120_000);

  it('tasksRunElsewhere names the tasks whose writer still has the store open, and none once it closed', async () => {
    const { url } = await seed(0);
    const ownerStore = await openPostgresStore({ url });
    const owner = createRuntime({
      model: scriptedModel(
        (_request, { signal }) =>
          new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
      ),
      agents,
      tools: [mark],
      store: ownerStore,
    });
    const { id } = owner.spawn({ agent: 'marker', prompt: 'mark once' });
    await ownerStore.flush();
    const other = await openPostgresStore({ url });
    try {
      expect(await other.tasksRunElsewhere([id, 'unknown'])).toEqual([id]);
      expect(await ownerStore.tasksRunElsewhere([id])).toEqual([]);
      await owner.shutdown({ keepTasks: true });
      expect(await other.tasksRunElsewhere([id])).toEqual([]);
    } finally {
      await other.close();
    }
  }, 60_000);
});
