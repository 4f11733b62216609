import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeAnthropicServer } from '../../../test/fake-anthropic/index.js';
import { cleanEnv, cliArgs, fixtureProject, runCli, tempDir } from './helpers/cli.js';
import { fakeEnv, gate, sessionScenario, startFakeClaude } from './helpers/fake-claude.js';

let server: FakeAnthropicServer | undefined;
let child: ChildProcess | undefined;

afterEach(async () => {
  child?.kill('SIGKILL');
  child = undefined;
  await server?.close();
  server = undefined;
});

/** Starts `troupe run --agent explore` whose model call hangs, then kills it: an unfinished task. */
async function crashedRun(project: string, home: string, store: string): Promise<string> {
  server = await startFakeClaude(sessionScenario({ explore: gate(true) }));
  server.enqueue({ fault: 'hang' });
  const env = cleanEnv(home, fakeEnv(server));
  child = spawn(process.execPath, cliArgs(['run', '--store', store, '--agent', 'explore', 'find login']), {
    cwd: project,
    env,
    stdio: 'ignore',
  });
  await server.waitForRequests(1);
  // The snapshot is written shortly after the model call starts (writes are batched): kill after it.
  const snapshotOf = () => readdirSync(store).find((name) => name.endsWith('.snapshot.json'));
  for (let tries = 0; !snapshotOf() && tries < 200; tries++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const done = new Promise((resolve) => child!.on('exit', resolve));
  child.kill('SIGKILL');
  await done;
  child = undefined;
  const snapshot = snapshotOf()!;
  return snapshot.slice(0, -'.snapshot.json'.length);
}

const stackLine = /^\s+at /m;

describe('troupe tasks resume over a damaged store', { timeout: 120_000 }, () => {
  it('a snapshot with a null context (its journal lost): the task fails with one clear line naming it and the file, no stack trace', async () => {
    const project = fixtureProject();
    const home = tempDir('home');
    const store = join(tempDir('store'), 'tasks');
    const id = await crashedRun(project, home, store);
    const snapshot = join(store, `${id}.snapshot.json`);
    const document = JSON.parse(readFileSync(snapshot, 'utf8'));
    document.snapshot.context = null;
    writeFileSync(snapshot, JSON.stringify(document));
    unlinkSync(join(store, `${id}.journal.jsonl`));
    const env = cleanEnv(home, fakeEnv(server!));
    const resumed = await runCli(['tasks', 'resume', '--store', store], { cwd: project, env });
    expect(resumed.stderr).not.toMatch(stackLine);
    expect(resumed.code).not.toBe(0);
    expect(resumed.stderr).toContain(`Task ${id} cannot be restored`);
    expect(resumed.stderr).toContain(snapshot);
    expect(resumed.stderr).toContain(`find login - failed, ERROR: Task ${id} cannot be restored`);
    const listed = await runCli(['tasks', 'list', '--store', store], { cwd: project, env });
    expect(listed.stdout).toMatch(new RegExp(`${id}\\s+explore\\s+find login\\s+failed`));
  });

  it('a FIFO in place of the status log: one line naming it, no hang, no stack trace', async () => {
    const project = fixtureProject();
    const home = tempDir('home');
    const store = join(tempDir('store'), 'tasks');
    await crashedRun(project, home, store);
    const log = join(store, 'tasks.jsonl');
    unlinkSync(log);
    expect(spawnSync('mkfifo', [log]).status).toBe(0);
    const env = cleanEnv(home, fakeEnv(server!));
    const resumed = await runCli(['tasks', 'resume', '--store', store], { cwd: project, env });
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).not.toMatch(stackLine);
    expect(resumed.stderr).toBe(
      `troupe: "${log}" is not a regular file (a FIFO); the task store reads and writes only regular files. Remove it or move it out of the store directory.\n`,
    );
  });
});
