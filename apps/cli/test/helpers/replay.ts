import { join } from 'node:path';
import { createRuntime, type RuntimeOptions, type SpawnOptions } from '@troupe/core';
import { createFileStore } from '@troupe/node';
import { type CliRun, cleanEnv, tempDir } from './cli.js';
import { runCliInProcess } from './cli-in-process.js';

/** Where {@link storeWithTask} left its task: the store directory and the task's id. */
export interface StoredTask {
  dir: string;
  id: string;
}

/**
 * A fresh file store (in a temporary directory named after `prefix`) holding one finished task:
 * `runtime` (everything but its store) runs `spawn` to its end, then runtime and store are closed.
 */
export async function storeWithTask(
  runtime: Omit<RuntimeOptions, 'store'>,
  spawn: SpawnOptions,
  prefix = 'replay',
): Promise<StoredTask> {
  const dir = join(tempDir(prefix), 'store');
  const store = createFileStore({ dir });
  const running = createRuntime({ ...runtime, store });
  const { id, result } = running.spawn(spawn);
  await result;
  await running.shutdown();
  await store.close();
  return { dir, id };
}

/** Runs `troupe replay ARGS` in `cwd` with a fresh home (in this process: {@link runCliInProcess}). */
export function replay(args: string[], cwd: string): Promise<CliRun> {
  return runCliInProcess(['replay', ...args], { cwd, env: cleanEnv(tempDir('home')) });
}
