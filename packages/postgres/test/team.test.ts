import { fileURLToPath } from 'node:url';
import { replayTeam, type TaskStore, type TeamResult } from '@troupe/core';
import { transcriptOf } from '@troupe/core/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClusterClient, connectCluster } from '../src/index.js';
import { ClusterHarness, clusterTools } from './cluster-harness.js';
import { teamAgents, teamJob } from './fixtures/team-job.js';

// One team across two cluster workers (each runs one spell at a time, so two spells at once run on
// both), then the worker hosting a team SIGKILLed mid-run. See fixtures/team-job.ts for the job.
const TEAM_WORKER = fileURLToPath(new URL('./fixtures/team-worker.ts', import.meta.url));
let harness: ClusterHarness;
let client: ClusterClient;

beforeAll(async () => {
  harness = await ClusterHarness.start('teams', []);
  harness.workerScript = TEAM_WORKER;
  await Promise.all([
    harness.startWorker('t1', 'auto', 2_000, 1),
    harness.startWorker('t2', 'auto', 2_000, 1),
  ]);
  client = await connectCluster({ postgres: harness.url, agents: teamAgents, tools: clusterTools });
}, 120_000);

afterAll(async () => {
  await client?.close();
  await harness?.stop();
}, 60_000);

const team = (session: string, prompt: string) =>
  client.createTeam({ ...teamJob.options, prompt, sessionKey: session });

/** The message ids each member's spells received (read from their stored conversations), in order. */
async function received(store: TaskStore, result: TeamResult): Promise<Record<string, string[]>> {
  const teamId = result.teamId;
  const byMember: Record<string, string[]> = {};
  for (const member of result.members)
    for (let n = 1; n <= member.spells; n++) {
      const spell = `${teamId}-${member.name}-${n}`;
      const task = (await store.getTask(spell))!;
      const [snapshot, journal] = await Promise.all([store.loadSnapshot(spell), store.loadJournal(spell)]);
      // A spell's history repeats its member's earlier spells: only what it added counts.
      const own = transcriptOf(task.spec, snapshot, journal.entries).slice(task.spec.messages.length - 1);
      const text = JSON.stringify(own);
      byMember[member.name] = [
        ...(byMember[member.name] ?? []),
        ...[...text.matchAll(/<teammate-message id=\\"(m\d+)\\"/g)].map((match) => match[1]!),
      ];
    }
  return byMember;
}

/** What every finished team of the job shows: its end, its task list, each message once and in order, each write once. */
async function expectJobDone(result: TeamResult): Promise<void> {
  expect(result).toMatchObject({
    status: 'completed',
    terminateReason: 'GOAL',
    output: 'The report is written.',
  });
  expect(result.tasks.map((task) => [task.id, task.status, task.owner])).toEqual([
    ['1', 'completed', 'alice'],
    ['2', 'completed', 'bob'],
  ]);
  const byMember = await received(client.store, result);
  for (const member of ['lead', 'alice', 'bob'])
    expect(byMember[member] ?? [], member).toEqual(
      result.messages.filter((message) => message.to === member).map((message) => message.id),
    );
  // bob's write before his plan was approved was refused (on whichever worker ran it): no write ran.
  const bob = await client.store.getTask(`${result.teamId}-bob-1`);
  const first = transcriptOf(
    bob!.spec,
    await client.store.loadSnapshot(bob!.spec.taskId),
    (await client.store.loadJournal(bob!.spec.taskId)).entries,
  );
  expect(JSON.stringify(first)).toContain('your plan is not approved by the lead yet');
  const { rows: writes } = await harness.pool.query(
    `SELECT split_part(substr(task_id, length($1) + 2), '-', 1) AS member, count(*)::int AS n
     FROM probe_writes WHERE task_id LIKE $1 || '-%' GROUP BY 1 ORDER BY 1`,
    [result.teamId],
  );
  expect(writes).toEqual([
    { member: 'alice', n: 1 },
    { member: 'bob', n: 1 },
  ]);
  const { rows: finals } = await harness.pool.query(
    `SELECT count(*)::int AS n FROM troupe.status_log
     WHERE task_id = $1 AND record->>'status' IN ('completed', 'failed', 'cancelled')`,
    [result.teamId],
  );
  expect(finals).toEqual([{ n: 1 }]);
  // The stored run replays exactly, message interleaving included, whichever workers ran it.
  const replay = await replayTeam(client.store, result.teamId);
  expect(replay.differences).toEqual([]);
  expect(replay.matches).toBe(true);
}

describe('an agent team on a cluster', () => {
  it('runs its members’ spells on both workers: every message delivered once and in order, dependencies and plan approval kept, the run replays exactly', async () => {
    const handle = await team('s1', 'Write the report with your team.');
    const result = await handle.result;
    await expectJobDone(result);
    const { rows } = await harness.pool.query(
      `SELECT DISTINCT worker FROM probe_calls WHERE task_id LIKE $1 || '-%' ORDER BY worker`,
      [handle.id],
    );
    expect(rows.map((row) => row.worker)).toEqual(['t1', 't2']);
    // The lead's message to both, bob's plan and its approval, alice's news to bob, bob's to the lead.
    expect((await handle.state()).messages.map((message) => `${message.from}>${message.to}`).sort()).toEqual([
      'alice>bob',
      'bob>lead',
      'bob>lead',
      'lead>alice',
      'lead>bob',
      'lead>bob',
    ]);
  }, 60_000);

  it('cancels a running team from a client: its host cancels every member’s spell', async () => {
    const handle = await team('s3', 'Write the report with your team.');
    await harness.until(async () => {
      const { rows } = await harness.pool.query("SELECT 1 FROM probe_calls WHERE task_id LIKE $1 || '-%'", [
        handle.id,
      ]);
      return rows.length > 0;
    }, 'a spell of the team');
    expect(await handle.cancel('not needed')).toBe(true);
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'cancelled', terminateReason: 'ABORTED', message: 'not needed' });
    await harness.until(async () => {
      const { rows } = await harness.pool.query(
        `SELECT task_id FROM troupe.tasks WHERE task_id LIKE $1 || '-%' AND result IS NULL`,
        [handle.id],
      );
      return rows.length === 0;
    }, 'every spell ended');
  }, 60_000);

  it('carries on when the worker hosting the team is SIGKILLed mid-run: nothing lost or doubled, no write re-run', async () => {
    const handle = await team('s2', 'Write the report with your team. [kill point]');
    await harness.until(async () => {
      const { rows } = await harness.pool.query("SELECT 1 FROM probe_writes WHERE task_id LIKE $1 || '-%'", [
        handle.id,
      ]);
      return rows.length > 0;
    }, 'a write of the team');
    const host = await harness.workerOf(handle.id);
    await harness.kill(host);
    const survivor = [...harness.workers.keys()][0]!;
    const result = await handle.result;
    await expectJobDone(result);
    expect(await harness.workerOf(handle.id)).toBe(survivor);
  }, 90_000);
});
