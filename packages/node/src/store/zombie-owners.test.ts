import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { markerModel, markerRuntime } from '../../test/helpers/marker-runtime.js';
import { useRunnerFolder } from '../../test/helpers/runner-folder.js';
import { type RunnerProcess, repositoryRoot, watchRunner } from '../../test/helpers/runner-process.js';
import { createFileStore } from './file-store.js';
import { processStart } from './process-liveness.js';

const restoreScript = fileURLToPath(new URL('../../test/helpers/restore-runner.ts', import.meta.url));
const spawnScript = fileURLToPath(new URL('../../test/helpers/spawn-runner.ts', import.meta.url));

const folder = useRunnerFolder('troupe-zombie-');

/**
 * Runs `script` (a runner of test/helpers) as the child of a parent that never reaps it: `sh`
 * starts it in the background, then becomes `sleep`. Killed, the runner stays a zombie until the
 * test ends, as a SIGKILLed runtime does until its parent waits for it. `ended` once it dies.
 */
function startUnreaped(script: string): RunnerProcess {
  const child = spawn(
    'sh',
    [
      '-c',
      // A background job's stdin is /dev/null unless given another: keep the pipe on fd 3 for it.
      'exec 3<&0; "$0" --conditions=source --import tsx "$1" "$2" "$3" 0<&3 3<&- & echo "{\\"pid\\":$!}"; exec sleep 600 >/dev/null 2>&1 </dev/null 3<&-',
      process.execPath,
      script,
      folder.dir,
      folder.marker,
    ],
    { cwd: repositoryRoot, stdio: 'pipe' },
  );
  return folder.track(watchRunner(child));
}

function startRunner(script: string): RunnerProcess {
  return folder.start(script, [folder.dir, folder.marker]);
}

/**
 * Resolves once `pid` is a zombie. Its stdout closes while it exits, a moment before it is one;
 * no event says when, so /proc is read every 10 ms (at most 10 s).
 */
async function zombie(pid: number): Promise<void> {
  for (let tries = 0; tries < 1_000 && stateOf(pid) !== 'Z'; tries++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  expect(stateOf(pid)).toBe('Z');
}

function stateOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!;
}

async function markerLines(): Promise<string[]> {
  return (await readFile(folder.marker, 'utf8').catch(() => '')).split('\n').filter(Boolean);
}

describe('a SIGKILLed runtime not yet reaped (a zombie)', () => {
  it('is not taken for the live owner of its tasks: a restore resumes them', async () => {
    const owner = startUnreaped(spawnScript);
    const { pid } = await owner.first('pid');
    const { spawned } = await owner.first('spawned');
    process.kill(pid!, 'SIGKILL');
    await owner.ended;
    await zombie(pid!);
    const restorer = startRunner(restoreScript);
    expect(await restorer.first('restored')).toEqual({ restored: [spawned], warnings: [] });
    restorer.go();
    expect(await restorer.first('finished')).toEqual({ finished: ['completed'] });
    restorer.end();
    await restorer.exited;
    expect(await markerLines()).toEqual([String(restorer.pid)]);
  }, 60_000);

  it('does not hold the restore lock: the next restore takes it over with a warning naming it', async () => {
    const holder = startUnreaped(restoreScript);
    const { pid } = await holder.first('pid');
    expect(await holder.first('restored')).toEqual({ restored: [], warnings: [] });
    process.kill(pid!, 'SIGKILL');
    await holder.ended;
    await zombie(pid!);
    const next = startRunner(restoreScript);
    const output = await next.first('restored', 'error');
    expect(output.error).toBeUndefined();
    expect(output.warnings).toEqual([
      expect.objectContaining({
        code: 'PERSISTENCE_LOCK_TAKEN',
        message: expect.stringContaining(`left by process ${pid} on ${hostname()}`),
      }),
    ]);
    next.end();
    await next.exited;
  }, 60_000);
});

describe('the restore lock', () => {
  it('whose holder pid now names another process (its start time differs) is taken over', async () => {
    await mkdir(folder.dir, { recursive: true });
    const lock = join(folder.dir, 'restore.lock');
    const start = processStart('self');
    expect(start).toBeTypeOf('number');
    // This process's pid, but a process that started at another time: the holder is gone.
    writeFileSync(
      lock,
      JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now(), start: start! + 1 }),
    );
    const store = createFileStore({ dir: folder.dir });
    const { warnings } = await store.lockForRestore();
    expect(warnings).toEqual([expect.objectContaining({ code: 'PERSISTENCE_LOCK_TAKEN', path: lock })]);
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid, start });
    await store.close();
  });
});

describe('tasks left to another runtime', () => {
  it('are resumed once that runtime is gone, without a second restore() call', async () => {
    const owner = startRunner(spawnScript);
    const { spawned } = await owner.first('spawned');
    const store = createFileStore({ dir: folder.dir });
    const runtime = markerRuntime(markerModel(Promise.resolve()), store, folder.marker);
    const completed = new Promise<string>((resolve) =>
      runtime.on('task.completed', (event) => resolve(event.taskId)),
    );
    const { restored, warnings } = await runtime.restore({ ownerCheckMs: 50 });
    expect(restored).toEqual([]);
    expect(warnings.map((warning) => warning.code)).toEqual(['PERSISTENCE_TASK_OWNED']);
    expect(await store.tasksRunElsewhere([spawned!, 'unknown'])).toEqual([spawned]);
    owner.end();
    // Its owner killed mid-task: this runtime notices and resumes it.
    process.kill(owner.pid, 'SIGKILL');
    await owner.exited;
    expect(await store.tasksRunElsewhere([spawned!])).toEqual([]);
    expect(await completed).toBe(spawned);
    expect(await markerLines()).toEqual([String(process.pid)]);
    await runtime.shutdown();
  }, 60_000);
});
