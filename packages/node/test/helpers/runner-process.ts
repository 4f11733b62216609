// A troupe runtime in a child process (one of the runner scripts of this folder), read line by
// line: each runner prints one JSON object per line ({"spawned": id}, {"restored": [...]}, …),
// lets its model answer when a line arrives on stdin, and shuts down when stdin ends.

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** The repository's root: runners are started from there (tsx finds the workspace's packages). */
export const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** What the runners print. */
export interface RunnerOutput {
  pid?: number;
  spawned?: string;
  restored?: string[];
  warnings?: { code: string; message: string }[];
  error?: { code: string; message: string; details?: Record<string, unknown> };
  finished?: string[];
}

/** A runner process being read; see {@link startRunnerProcess} and {@link watchRunner}. */
export interface RunnerProcess {
  child: ChildProcessWithoutNullStreams;
  /** The child's pid (of the prefix, when started behind one). */
  pid: number;
  /** The first line printed that has one of `keys`. */
  first(...keys: (keyof RunnerOutput)[]): Promise<RunnerOutput>;
  /** The `count`-th line printed. */
  line(count: number): Promise<RunnerOutput>;
  /** Lets the runner's model answer once. */
  go(): void;
  /** Ends its stdin: it shuts down. */
  end(): void;
  /** Ends its stdin and waits for it to exit; rejects when it wrote anything on stderr. */
  stop(): Promise<void>;
  /** Kills it (with `SIGKILL`, its whole process group when started behind a prefix) and waits for it. */
  kill(): Promise<void>;
  exited: Promise<unknown>;
  /** Its stdout ended (it died, even if nobody reaped it yet). */
  ended: Promise<unknown>;
  stderr(): string;
}

/** Reads an already started runner `child`; `group`: it leads its own process group (kill them all). */
export function watchRunner(child: ChildProcessWithoutNullStreams, group = false): RunnerProcess {
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const outputs: RunnerOutput[] = [];
  const waiters: (() => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    outputs.push(JSON.parse(line) as RunnerOutput);
    for (const wake of waiters.splice(0)) wake();
  });
  const exited = once(child, 'exit');
  const ended = once(child.stdout, 'end');
  const closed = once(child.stdout, 'close');
  const when = (found: () => RunnerOutput | undefined, what: string) =>
    new Promise<RunnerOutput>((resolve, reject) => {
      const check = () => {
        const output = found();
        if (output) resolve(output);
        else waiters.push(check);
      };
      check();
      closed.then(() => {
        if (!found()) reject(new Error(`runner ended before printing ${what}: ${stderr}`));
      });
    });
  return {
    child,
    pid: child.pid!,
    first: (...keys) =>
      when(() => outputs.find((output) => keys.some((key) => output[key] !== undefined)), keys.join(' or ')),
    line: (count) => when(() => outputs[count - 1], `line ${count}`),
    go: () => child.stdin.write('go\n'),
    end: () => child.stdin.end(),
    async stop() {
      child.stdin.end();
      await exited;
      if (stderr !== '') throw new Error(`runner ${child.pid} wrote on stderr: ${stderr}`);
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (group) process.kill(-child.pid!, 'SIGKILL');
      else child.kill('SIGKILL');
      await exited;
    },
    exited,
    ended,
    stderr: () => stderr,
  };
}

/**
 * Starts `node --conditions=source --import tsx <script> ...args` from the repository's root,
 * behind `prefix` when given (e.g. `unshare … --fork`: then in its own process group, so
 * {@link RunnerProcess.kill} reaches the runner behind the prefix too).
 */
export function startRunnerProcess(script: string, args: string[], prefix: string[] = []): RunnerProcess {
  const command = [...prefix, process.execPath, '--conditions=source', '--import', 'tsx', script, ...args];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: repositoryRoot,
    stdio: 'pipe',
    detached: prefix.length > 0,
  });
  return watchRunner(child, prefix.length > 0);
}

/**
 * The end of the "a live runtime owns the task" cases: lets both runners' models answer, expects the
 * owner to end its task completed and the restorer (which resumed nothing) to end none, then stops
 * both.
 */
export async function expectOwnerAloneFinishes(owner: RunnerProcess, restorer: RunnerProcess): Promise<void> {
  owner.go();
  restorer.go();
  expect(await owner.line(2)).toEqual({ finished: ['completed'] });
  expect(await restorer.line(2)).toEqual({ finished: [] });
  await restorer.stop();
  await owner.stop();
}
