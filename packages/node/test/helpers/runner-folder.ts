// A temporary folder per test for the runner process tests: `dir` holds the task store, `marker`
// the file the marker tool appends to. Runners started with `start` are killed after each test,
// then the folder is removed.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { type RunnerProcess, startRunnerProcess } from './runner-process.js';

/** The current test's folder; its paths change before each test. */
export interface RunnerFolder {
  /** The temporary folder (removed after the test). */
  readonly root: string;
  /** The task store's folder, `<root>/tasks` (not created). */
  readonly dir: string;
  /** The marker file, `<root>/marker.txt`. */
  readonly marker: string;
  /** Keeps `runner` to kill after the test; returns it. */
  track(runner: RunnerProcess): RunnerProcess;
  /** Starts a runner script (see {@link startRunnerProcess}) and tracks it. */
  start(script: string, args: string[], prefix?: string[]): RunnerProcess;
}

/** Registers `beforeEach`/`afterEach` hooks giving each test a fresh folder named `<prefix>…`. */
export function useRunnerFolder(prefix: string): RunnerFolder {
  const runners: RunnerProcess[] = [];
  let root = '';
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    for (const runner of runners.splice(0)) await runner.kill();
    await rm(root, { recursive: true, force: true });
  });
  const track = (runner: RunnerProcess) => {
    runners.push(runner);
    return runner;
  };
  return {
    get root() {
      return root;
    },
    get dir() {
      return join(root, 'tasks');
    },
    get marker() {
      return join(root, 'marker.txt');
    },
    track,
    start: (script, args, prefixArgs) => track(startRunnerProcess(script, args, prefixArgs)),
  };
}
