// A troupe runtime in a child process (one of the runner scripts of this folder), read line by
// line: each runner prints one JSON object per line ({"spawned": id}, {"restored": [...]}, …),
// lets its model answer when a line arrives on stdin, and shuts down when stdin ends.

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** What the runners print. */
export interface RunnerOutput {
  pid?: number;
  spawned?: string;
  restored?: string[];
  warnings?: { code: string; message: string }[];
  error?: { code: string; message: string };
  finished?: string[];
}

/** A runner process started by {@link startRunnerProcess}. */
export interface RunnerProcess {
  child: ChildProcessWithoutNullStreams;
  /** The first line printed that has one of `keys`. */
  first(...keys: (keyof RunnerOutput)[]): Promise<RunnerOutput>;
  /** Lets the runner's model answer once. */
  go(): void;
  /** Ends its stdin: it shuts down. */
  end(): void;
  /** Kills it (with `SIGKILL`, its whole process group when started `detached`) and waits for it. */
  kill(): Promise<void>;
  exited: Promise<unknown>;
  stderr(): string;
}

/**
 * Starts `node --conditions=source --import tsx <script> ...args`, behind `prefix` when given (e.g.
 * `unshare … --fork`: then it runs in its own process group, so {@link RunnerProcess.kill} reaches
 * the runner behind the prefix too).
 */
export function startRunnerProcess(script: string, args: string[], prefix: string[] = []): RunnerProcess {
  const command = [...prefix, process.execPath, '--conditions=source', '--import', 'tsx', script, ...args];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: repositoryRoot,
    stdio: 'pipe',
    detached: prefix.length > 0,
  });
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
  const first = (...keys: (keyof RunnerOutput)[]) =>
    new Promise<RunnerOutput>((resolve, reject) => {
      const has = (output: RunnerOutput) => keys.some((key) => output[key] !== undefined);
      const check = () => {
        const found = outputs.find(has);
        if (found) resolve(found);
        else waiters.push(check);
      };
      check();
      exited.then(() => {
        if (!outputs.some(has))
          reject(new Error(`runner exited before printing ${keys.join(' or ')}: ${stderr}`));
      });
    });
  return {
    child,
    first,
    go: () => child.stdin.write('go\n'),
    end: () => child.stdin.end(),
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (prefix.length > 0) process.kill(-child.pid!, 'SIGKILL');
      else child.kill('SIGKILL');
      await exited;
    },
    exited,
    stderr: () => stderr,
  };
}
