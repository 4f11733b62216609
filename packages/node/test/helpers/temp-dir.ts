import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** A temporary folder that {@link useTempDir} makes fresh for each test. */
export interface TempDir {
  /** The folder of the running test (throws outside a test). */
  readonly path: string;
}

/**
 * Gives each test of the calling file a fresh temporary folder named `prefix` + random characters
 * under the system's temporary folder, and removes it after the test. Call at the top of a test
 * file (or a `describe`), before any `beforeEach` that uses the folder.
 */
export function useTempDir(prefix: string): TempDir {
  let current: string | undefined;
  beforeEach(async () => {
    current = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    if (current) await rm(current, { recursive: true, force: true });
    current = undefined;
  });
  return {
    get path() {
      if (current === undefined)
        throw new Error(`useTempDir('${prefix}'): the folder exists only inside a test`);
      return current;
    },
  };
}
