import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { markerModel, markerRuntime } from '../../test/helpers/marker-runtime.js';
import { useRunnerFolder } from '../../test/helpers/runner-folder.js';
import { createFileStore } from './file-store.js';
import { THIS_HOST } from './host-identity.js';
import { processStart } from './process-liveness.js';
import { SilenceWatch } from './silence-watch.js';
import { StoreRunner, type TaskOwner } from './task-owner.js';

// Hosts sharing one store directory (a network file system): a pid means nothing across them, so
// a runtime on another host proves it is alive by rewriting its runner file and restore lock every
// heartbeat. "Another host" in the process tests is a runner in its own pid namespace (`unshare
// --user --map-root-user --pid --fork`, no privilege needed): its pid there is 1, which on this
// host names a live process — exactly the mistake a pid check across hosts would make.

const spawnScript = fileURLToPath(new URL('../../test/helpers/spawn-runner.ts', import.meta.url));
const restoreScript = fileURLToPath(new URL('../../test/helpers/restore-runner.ts', import.meta.url));
const otherHost = ['unshare', '--user', '--map-root-user', '--pid', '--fork'];
const beats = { heartbeatMs: 100, hostDeadAfterMs: 1_000 };

const folder = useRunnerFolder('troupe-cross-host-');

const onOtherHost = (script: string) => {
  return folder.start(script, [folder.dir, folder.marker, JSON.stringify(beats)], otherHost);
};
const markerLines = async () =>
  (await readFile(folder.marker, 'utf8').catch(() => '')).split('\n').filter(Boolean);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('judging the runtime that owns a task', () => {
  let clock = 0;
  const runnerWith = () => {
    mkdirSync(folder.dir, { recursive: true });
    return new StoreRunner(folder.dir, {
      heartbeatMs: 100,
      deadAfterMs: 1_000,
      watch: new SilenceWatch(() => clock),
    });
  };
  const runnerFileOf = (owner: TaskOwner, beat = 0) =>
    writeFileSync(join(folder.dir, `runner-${owner.runner}.lock`), JSON.stringify({ ...owner, beat }));

  it('on this host, by pid and start time: a pid reused by another process is not the owner', () => {
    const runner = runnerWith();
    const start = processStart('self');
    expect(start).toBeTypeOf('number');
    const live: TaskOwner = { ...THIS_HOST, pid: process.pid, start: start!, runner: 'a'.repeat(16) };
    const reused: TaskOwner = { ...live, start: start! + 1, runner: 'b'.repeat(16) };
    runnerFileOf(live);
    runnerFileOf(reused);
    expect(runner.runsElsewhere(live)).toBe(true);
    expect(runner.runsElsewhere(reused)).toBe(false);
  });

  it('on another host, by its heartbeat: alive while its runner file changes, gone after hostDeadAfterMs of silence', () => {
    const runner = runnerWith();
    // Its pid is this process's: a pid check here would call it alive for ever.
    const remote: TaskOwner = {
      host: 'far',
      hostId: 'another-boot/pid:[1]',
      pid: process.pid,
      runner: 'c'.repeat(16),
    };
    runnerFileOf(remote);
    clock = 0;
    expect(runner.runsElsewhere(remote)).toBe(true);
    clock = 999;
    expect(runner.runsElsewhere(remote)).toBe(true);
    runnerFileOf(remote, 1);
    clock = 1_500;
    expect(runner.runsElsewhere(remote)).toBe(true);
    clock = 2_499;
    expect(runner.runsElsewhere(remote)).toBe(true);
    clock = 2_500;
    expect(runner.runsElsewhere(remote)).toBe(false);
  });

  it('refuses a heartbeat that could not prove anything', () => {
    expect(() => createFileStore({ dir: folder.dir, heartbeatMs: 0 })).toThrow(
      /heartbeatMs must be a number of ms > 0; got 0/,
    );
    expect(() => createFileStore({ dir: folder.dir, heartbeatMs: 1_000, hostDeadAfterMs: 1_500 })).toThrow(
      /hostDeadAfterMs must be at least 2 × heartbeatMs \(2000\); got 1500/,
    );
  });
});

describe('a runtime on another host sharing the store', () => {
  it('keeps its task while it beats; once it stops, the task is resumed here and its write runs once', async () => {
    const remote = onOtherHost(spawnScript);
    const { spawned } = await remote.first('spawned');
    const store = createFileStore({ dir: folder.dir, ...beats });
    const runtime = markerRuntime(markerModel(Promise.resolve()), store, folder.marker);
    const completed = new Promise<string>((resolve) =>
      runtime.on('task.completed', (event) => resolve(event.taskId)),
    );
    const { restored, warnings } = await runtime.restore({ ownerCheckMs: 100 });
    expect(restored).toEqual([]);
    expect(warnings).toEqual([
      expect.objectContaining({
        code: 'PERSISTENCE_TASK_OWNED',
        message: expect.stringContaining(`Task ${spawned}`),
      }),
    ]);
    // Twice the time after which a silent host is gone: it beats, so it still owns the task.
    await sleep(2 * beats.hostDeadAfterMs);
    expect(await store.tasksRunElsewhere([spawned!])).toEqual([spawned]);
    expect(await markerLines()).toEqual([]);
    await remote.kill();
    expect(await completed).toBe(spawned);
    expect(await markerLines()).toEqual([String(process.pid)]);
    await runtime.shutdown();
  }, 60_000);

  it('holds the restore lock while it beats (refused, naming it); once it stops, the lock is taken over with a warning', async () => {
    const remote = onOtherHost(restoreScript);
    expect(await remote.first('restored', 'error')).toMatchObject({ restored: [] });
    const store = createFileStore({ dir: folder.dir, ...beats });
    await expect(store.lockForRestore()).rejects.toMatchObject({
      code: 'PERSISTENCE_LOCKED',
      message: expect.stringMatching(/is being restored by process 1 on /),
    });
    await remote.kill();
    const { warnings } = await store.lockForRestore();
    expect(warnings).toEqual([
      expect.objectContaining({
        code: 'PERSISTENCE_LOCK_TAKEN',
        message: expect.stringMatching(
          /of process 1 on host .*: its heartbeat stopped \(the lock did not change for \d+ ms; a host is taken for gone after 1000 ms\)/,
        ),
      }),
    ]);
    await store.close();
  }, 60_000);
});
