import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { FakeAnthropicServer } from '../../../../test/fake-anthropic/index.js';
import { cleanEnv, cliArgs, fixtureProject, tempDir } from './cli.js';
import { fakeEnv, gate, sessionScenario, startFakeClaude } from './fake-claude.js';

/** A store holding one task that a killed `troupe run` left unfinished, see {@link useCrashedRuns}. */
export interface CrashedRun {
  /** The project the run was started in (a fresh copy of the fixture project). */
  project: string;
  /** `HOME` of the run. */
  home: string;
  /** The task store directory. */
  store: string;
  /** The id of the unfinished task (status `running` in the store). */
  taskId: string;
  /** The fake Claude; it answers the session scenario from now on (its explore gate is open). */
  server: FakeAnthropicServer;
  /** The environment for more `troupe` commands on the same home and fake Claude. */
  env: NodeJS.ProcessEnv;
}

/**
 * Crashes for tests of `troupe tasks` over a persisted store: the function returned starts
 * `troupe run --agent explore 'find login'` whose model call hangs, waits until the task's
 * snapshot is written, then kills the process (SIGKILL). Registers an `afterEach` that closes
 * the fake Claude servers it started.
 */
export function useCrashedRuns(): () => Promise<CrashedRun> {
  const servers: FakeAnthropicServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async () => {
    const project = fixtureProject();
    const home = tempDir('home');
    const store = join(tempDir('store'), 'tasks');
    const server = await startFakeClaude(sessionScenario({ explore: gate(true) }));
    servers.push(server);
    server.enqueue({ fault: 'hang' });
    const env = cleanEnv(home, fakeEnv(server));
    const args = cliArgs(['run', '--store', store, '--agent', 'explore', 'find login']);
    const child = spawn(process.execPath, args, { cwd: project, env, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      await server.waitForRequests(1);
      // The snapshot is written shortly after the model call starts (writes are batched): kill after it.
      const snapshotOf = () => readdirSync(store).find((name) => name.endsWith('.snapshot.json'));
      for (let tries = 0; !snapshotOf() && tries < 200; tries++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const snapshot = snapshotOf();
      if (!snapshot) throw new Error(`troupe run wrote no task snapshot in ${store} within 10 s`);
      return { project, home, store, taskId: snapshot.slice(0, -'.snapshot.json'.length), server, env };
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  };
}
