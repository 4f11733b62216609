import { type ChildProcess, spawn } from 'node:child_process';
import { parseTimeline, replayTimeline, taskTrack } from '@troupe/inspect';
import { openPostgresStore } from '@troupe/postgres';
import { startTestCluster, type TestCluster } from '@troupe/postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropicServer } from '../../../test/fake-anthropic/index.js';
import { lastUserText, textStep, toolResultsOf, toolStep } from '../../../test/fake-anthropic/index.js';
import { cleanEnv, cliArgs, fixtureProject, runCli, tempDir } from './helpers/cli.js';
import { FAKE_API_KEY, fakeEnv, gate, startFakeClaude } from './helpers/fake-claude.js';

let cluster: TestCluster;
let server: FakeAnthropicServer;
let worker: ChildProcess | undefined;

beforeAll(async () => {
  cluster = await startTestCluster();
  server = await startFakeClaude((request) => textStep(`answer to: ${lastUserText(request)}`));
}, 60_000);

afterAll(async () => {
  worker?.kill('SIGKILL');
  await server?.close();
  await cluster?.destroy();
});

describe('troupe worker, run --postgres and tasks --postgres', () => {
  it('runs a task submitted by `troupe run --postgres` on a `troupe worker`, and lists it', async () => {
    const url = await cluster.createDatabase('cli');
    const project = fixtureProject();
    const env = cleanEnv(tempDir('home'), fakeEnv(server));
    worker = spawn(process.execPath, cliArgs(['worker', '--postgres', url, '--dead-after', '3s']), {
      cwd: project,
      env,
    });
    let log = '';
    worker.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      log += chunk;
    });
    const run = await runCli(['run', '--postgres', url, '--agent', 'explore', 'find the login code'], {
      cwd: project,
      env,
    });
    expect(run.stderr).toMatch(/Queued task t_\w+ on the cluster \(agent explore\)/);
    expect(run.stdout).toBe('answer to: find the login code\n');
    expect(run.code).toBe(0);
    const listed = await runCli(['tasks', 'list', '--json'], {
      cwd: project,
      env: { ...env, TROUPE_POSTGRES: url },
    });
    const tasks = JSON.parse(listed.stdout);
    expect(tasks).toEqual([
      expect.objectContaining({ agent: 'explore', status: 'completed', description: 'find the login code' }),
    ]);
    expect(log).toMatch(/troupe worker .*: running tasks of the cluster/);
    // What the worker was started with, not what was asked: --dead-after reached startWorker.
    expect(log).toMatch(/it takes a worker silent for 3\.0s for dead/);
    expect(log).toMatch(/\[explore\] find the login code completed/);
    const stopped = new Promise((resolve) => worker!.once('exit', resolve));
    worker.kill('SIGTERM');
    expect(await stopped).toBe(0);
    worker = undefined;
  }, 120_000);

  it("`run --postgres --inspect` streams the worker's task to the relay: the replay of its journal, followed as it grows", async () => {
    const url = await cluster.createDatabase('inspect');
    const project = fixtureProject();
    const held = gate();
    const model = await startFakeClaude(async (request) => {
      if (!toolResultsOf(request).length)
        return toolStep('grep', { pattern: 'login', output_mode: 'files_with_matches' });
      await held.promise;
      return textStep('login is in src/auth.ts');
    });
    const env = cleanEnv(tempDir('home'), fakeEnv(model));
    const inspectWorker = spawn(process.execPath, cliArgs(['worker', '--postgres', url]), {
      cwd: project,
      env,
    });
    const run = spawn(
      process.execPath,
      cliArgs(['run', '--postgres', url, '--inspect', '--agent', 'explore', 'find the login code']),
      { cwd: project, env: { ...env, TROUPE_WEB_DIR: '' } },
    );
    let stderr = '';
    run.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => run.once('exit', resolve));
    try {
      await expect
        .poll(() => /at (http:\S+)\/timeline\/events/.exec(stderr)?.[1], { timeout: 60_000 })
        .toBeDefined();
      const relay = /at (http:\S+)\/timeline\/events/.exec(stderr)![1]!;
      const taskId = /Queued task (t_\w+)/.exec(stderr)![1]!;
      // A viewer of the relay, as the inspector page is: the header and every record, then each new one.
      const response = await fetch(`${relay}/timeline/events`);
      let lines = '';
      const reading = (async () => {
        const decoder = new TextDecoder();
        for await (const chunk of response.body!)
          lines += decoder.decode(chunk as Uint8Array, { stream: true });
      })();
      const states = () =>
        lines
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => JSON.parse(line.slice(6)) as { type?: string; snapshot?: { value?: unknown } })
          .filter((record) => record.type === '@xstate.snapshot')
          .map((record) => JSON.stringify(record.snapshot?.value));
      // Live: the worker's task is seen waiting on its second model call, before it ends.
      await expect.poll(() => states().join(' '), { timeout: 60_000 }).toMatch(/"acting"[\s\S]*"thinking"/);
      expect(states()).not.toContain('"completed"');
      held.open();
      expect(await exited).toBe(0);
      await reading;
      const timeline = parseTimeline(
        lines
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => `${line.slice(6)}\n`)
          .join(''),
        'the relay',
      );
      expect(timeline.header.source).toEqual({ kind: 'replay', taskId, store: 'postgres' });
      expect(states().at(-1)).toBe('"completed"');
      // What streamed equals the replay of the whole journal afterwards, step for step.
      const store = await openPostgresStore({ url });
      try {
        const replay = await replayTimeline(store, taskId);
        expect(replay.outcome.matches).toBe(true);
        expect(taskTrack(timeline, taskId)).toEqual(taskTrack(replay.timeline, taskId));
        // One step per journal entry (step N is the task after N entries; effect actors make none).
        const journal = await store.loadJournal(taskId);
        expect(journal.entries.map((entry) => entry.event.type)).toEqual([
          'task.started',
          'model.responded',
          'tool.finished',
          'model.responded',
        ]);
        expect(taskTrack(timeline, taskId)!.steps.length).toBe(journal.entries.length);
      } finally {
        await store.close();
      }
      expect(lines).not.toContain(FAKE_API_KEY);
    } finally {
      held.open();
      run.kill('SIGKILL');
      inspectWorker.kill('SIGKILL');
      await model.close();
    }
  }, 180_000);

  it('says what is wrong with a missing or unreachable cluster', async () => {
    const env = cleanEnv(tempDir('home'), fakeEnv(server));
    const cwd = fixtureProject();
    const missing = await runCli(['worker'], { cwd, env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Pass --postgres URL/);
    const refused = await runCli(['tasks', 'list', '--postgres', 'postgres://me:secret@127.0.0.1:1/troupe'], {
      cwd,
      env,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/connection refused/);
    expect(refused.stderr).not.toMatch(/secret/);
    const noDatabase = await runCli(['run', '--postgres', cluster.url('nope'), 'hi'], { cwd, env });
    expect(noDatabase.stderr).toMatch(/"nope" does not exist/);
  }, 60_000);
});
