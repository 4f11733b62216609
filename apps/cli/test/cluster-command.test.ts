import { type ChildProcess, spawn } from 'node:child_process';
import { startTestCluster, type TestCluster } from '@troupe/postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropicServer } from '../../../test/fake-anthropic/index.js';
import { lastUserText, textStep } from '../../../test/fake-anthropic/index.js';
import { cleanEnv, cliArgs, fixtureProject, runCli, tempDir } from './helpers/cli.js';
import { fakeEnv, startFakeClaude } from './helpers/fake-claude.js';

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
    worker = spawn(process.execPath, cliArgs(['worker', '--postgres', url]), { cwd: project, env });
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
    expect(log).toMatch(/\[explore\] find the login code completed/);
    const stopped = new Promise((resolve) => worker!.once('exit', resolve));
    worker.kill('SIGTERM');
    expect(await stopped).toBe(0);
    worker = undefined;
  }, 120_000);

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
