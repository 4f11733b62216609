// Vitest global setup of the node project: one temporary folder for the whole test run, where
// test files share what is costly to make and the same for all of them (see once-per-run.ts),
// such as the web app's production build. Removed after the run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
// The type of what is provided (ProvidedContext) is declared there.
import type {} from './once-per-run.js';

/** Makes the run's folder and provides it to the test files; the returned teardown removes it. */
export default function setup(project: TestProject): () => Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'troupe-run-'));
  project.provide('troupeRunFolder', folder);
  return async () => {
    rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
  };
}
