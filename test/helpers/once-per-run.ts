// Something costly that every test file needing it would make the same (the web app's production
// build), made once per test run in the run's folder (run-folder-setup.ts) and shared by the files.
// Files run in parallel workers: the first to ask makes it while the others wait for it.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder of this test run, shared by its test files (see `oncePerRun`). */
    troupeRunFolder: string;
  }
}

/** How long a file waits for another file's making before it fails (default 5 minutes). */
const WAIT_MS = 300_000;

/**
 * The folder of `key` (any text: what is made and from what), made by `make` once per test run
 * and then reused by every test file of the run that asks for the same key. `make` fills the
 * folder it is given. Read-only for the callers: the run's teardown removes it.
 */
export async function oncePerRun(
  key: string,
  make: (folder: string) => Promise<void>,
  waitMs = WAIT_MS,
): Promise<string> {
  const runFolder = inject('troupeRunFolder');
  if (!runFolder)
    throw new Error(
      'oncePerRun: no run folder; the node project of vitest.config.ts must list test/helpers/run-folder-setup.ts in globalSetup',
    );
  const slot = join(runFolder, createHash('sha256').update(key).digest('hex').slice(0, 16));
  const folder = join(slot, 'made');
  const done = join(slot, 'done');
  const failed = join(slot, 'failed');
  let mine = true;
  try {
    mkdirSync(slot); // atomic: one file of the run makes it
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    mine = false;
  }
  if (mine) {
    try {
      mkdirSync(folder);
      await make(folder);
      writeFileSync(done, '');
      return folder;
    } catch (error) {
      writeFileSync(failed, (error as Error).stack ?? String(error));
      throw error;
    }
  }
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (existsSync(done)) return folder;
    if (existsSync(failed))
      throw new Error(
        `oncePerRun(${key}): another test file failed to make it:\n${readFileSync(failed, 'utf8')}`,
      );
    if (Date.now() > deadline)
      throw new Error(`oncePerRun(${key}): not made by another test file within ${waitMs} ms (in ${slot})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
