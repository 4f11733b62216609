import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRuntime, defineTool, PersistenceError } from '@troupe/core';
import { scriptedModel } from '@troupe/core/testing';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { restoreLockAgent } from '../../test/helpers/restore-lock-agent.js';
import { useRunnerFolder } from '../../test/helpers/runner-folder.js';
import { expectOwnerAloneFinishes, type RunnerProcess } from '../../test/helpers/runner-process.js';
import { createFileStore } from './file-store.js';

const runnerScript = fileURLToPath(new URL('../../test/helpers/restore-runner.ts', import.meta.url));
const spawnScript = fileURLToPath(new URL('../../test/helpers/spawn-runner.ts', import.meta.url));

const folder = useRunnerFolder('troupe-restore-lock-');

/** The write tool as the seeding runtime knows it: it must never run in this process. */
const appendMarker = defineTool({
  name: 'append_marker',
  description: 'Appends a line to the marker file',
  access: 'write',
  input: v.object({}),
  execute: async () => {
    throw new Error('append_marker ran in the test process');
  },
});

/** Leaves one task unfinished in the store (its model call was in flight), as a crash would. */
async function seedUnfinishedTask(): Promise<string> {
  let modelCalled!: () => void;
  const called = new Promise<void>((resolve) => {
    modelCalled = resolve;
  });
  const runtime = createRuntime({
    model: scriptedModel((_request, { signal }) => {
      modelCalled();
      return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    }),
    agents: [restoreLockAgent],
    tools: [appendMarker],
    approval: 'auto',
    store: createFileStore({ dir: folder.dir }),
  });
  const { id } = runtime.spawn({ agent: 'marker', prompt: 'append once' });
  await called;
  await runtime.shutdown({ keepTasks: true });
  return id;
}

/**
 * A runtime in a child process that restores the store (test/helpers/restore-runner.ts), or with
 * `spawnScript` one that spawns a task and never restores (test/helpers/spawn-runner.ts).
 */
function startRunner(script = runnerScript): RunnerProcess {
  return folder.start(script, [folder.dir, folder.marker]);
}

async function markerLines(): Promise<string[]> {
  const text = await readFile(folder.marker, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean);
}

describe('restore lock of the file store', () => {
  it('two runtimes in two processes restoring one store: one resumes the task, its write tool runs once, the other is refused naming the holder', async () => {
    const taskId = await seedUnfinishedTask();
    const runners = [startRunner(), startRunner()];
    const first = await Promise.all(runners.map((runner) => runner.line(1)));
    expect(first.map((output) => output.restored ?? output.error?.code).sort()).toEqual([
      'PERSISTENCE_LOCKED',
      [taskId],
    ]);
    for (const runner of runners) runner.go();
    const winner = first.findIndex((output) => output.restored !== undefined);
    expect(winner).toBeGreaterThanOrEqual(0);
    const holder = runners[winner]!;
    const loser = runners[1 - winner]!;
    expect(first[winner]).toEqual({ restored: [taskId], warnings: [] });
    expect(await holder.line(2)).toEqual({ finished: ['completed'] });
    const refusal = first[1 - winner]!.error!;
    expect(refusal.code).toBe('PERSISTENCE_LOCKED');
    expect(refusal.message).toContain(
      `The task store "${folder.dir}" is being restored by process ${holder.pid} on ${hostname()} since 20`,
    );
    expect(refusal.message).toContain(`lock file "${join(folder.dir, 'restore.lock')}"`);
    expect(await markerLines()).toEqual([String(holder.pid)]);
    await loser.stop();
    // The holder keeps the lock while it lives; after it shuts down, the lock file is gone.
    expect(existsSync(join(folder.dir, 'restore.lock'))).toBe(true);
    await holder.stop();
    expect(existsSync(join(folder.dir, 'restore.lock'))).toBe(false);
    expect(await markerLines()).toEqual([String(holder.pid)]);
  }, 90_000);

  it('takes over the lock of a killed runtime, with a warning naming it, and resumes its tasks', async () => {
    await seedUnfinishedTask();
    const crashed = startRunner();
    expect((await crashed.line(1)).restored).toHaveLength(1);
    crashed.go();
    expect(await crashed.line(2)).toEqual({ finished: ['completed'] });
    await crashed.kill();
    expect(existsSync(join(folder.dir, 'restore.lock'))).toBe(true);
    const orphan = await seedUnfinishedTask();
    const next = startRunner();
    const output = await next.line(1);
    next.go();
    expect(output.restored).toEqual([orphan]);
    expect(output.warnings).toEqual([
      expect.objectContaining({
        code: 'PERSISTENCE_LOCK_TAKEN',
        message: expect.stringContaining(`left by process ${crashed.pid} on ${hostname()}`),
      }),
    ]);
    expect(await next.line(2)).toEqual({ finished: ['completed'] });
    await next.stop();
    expect(await markerLines()).toEqual([String(crashed.pid), String(next.pid)]);
  }, 90_000);

  it('refuses a second store instance in the same process, until the first runtime shuts down', async () => {
    const first = createFileStore({ dir: folder.dir });
    expect(await first.lockForRestore()).toEqual({ warnings: [], runElsewhere: [] });
    // Idempotent for its holder: restoring twice is fine.
    expect(await first.lockForRestore()).toEqual({ warnings: [], runElsewhere: [] });
    const second = createRuntime({
      model: scriptedModel([]),
      agents: [restoreLockAgent],
      tools: [appendMarker],
      store: createFileStore({ dir: folder.dir }),
    });
    const refused = await second.restore().catch((error: unknown) => error);
    expect(PersistenceError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({
      code: 'PERSISTENCE_LOCKED',
      details: { path: join(folder.dir, 'restore.lock'), holder: { pid: process.pid, host: hostname() } },
    });
    await first.close();
    expect(await second.restore()).toEqual({ restored: [], warnings: [] });
    await second.shutdown();
    expect(existsSync(join(folder.dir, 'restore.lock'))).toBe(false);
  });
});

describe('tasks another live runtime runs', () => {
  it('are not resumed by a restore in another process (which took no restore lock): the task ends once, where it runs', async () => {
    const owner = startRunner(spawnScript);
    const { spawned } = await owner.line(1);
    expect(spawned).toMatch(/^t_/);
    const restorer = startRunner();
    const restore = await restorer.line(1);
    expect(restore).toEqual({
      restored: [],
      warnings: [
        expect.objectContaining({
          code: 'PERSISTENCE_TASK_OWNED',
          message: expect.stringContaining(
            `Task ${spawned} is not resumed: process ${owner.pid} on ${hostname()}, which runs it, is still running`,
          ),
        }),
      ],
    });
    await expectOwnerAloneFinishes(owner, restorer);
    expect(await markerLines()).toEqual([String(owner.pid)]);
  }, 90_000);

  it('are resumed once their process is gone (killed mid-task)', async () => {
    const owner = startRunner(spawnScript);
    const { spawned } = await owner.line(1);
    await owner.kill();
    const restorer = startRunner();
    expect(await restorer.line(1)).toEqual({ restored: [spawned], warnings: [] });
    restorer.go();
    expect(await restorer.line(2)).toEqual({ finished: ['completed'] });
    await restorer.stop();
    expect(await markerLines()).toEqual([String(restorer.pid)]);
  }, 90_000);
});
