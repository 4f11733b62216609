import { type ChildProcess, spawn } from 'node:child_process';

/**
 * The processes {@link runToEnd} started that have not ended yet: a test file kills what is left
 * when its tests are done (a test that timed out would otherwise leave its process running).
 */
export const unfinished = new Set<ChildProcess>();

/** What a finished process printed. */
export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link runToEnd}. */
export interface RunToEndOptions {
  cwd: string;
  /** Default: this process's environment. */
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed; without it stdin stays open. */
  input?: string;
  /** Killed with SIGKILL after this long; without it, never. */
  timeoutMs?: number;
}

/** Runs `command args` with piped stdio to its end; resolves with its exit code and output. */
export function runToEnd(
  command: string,
  args: readonly string[],
  options: RunToEndOptions,
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env });
    unfinished.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      unfinished.delete(child);
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (options.input !== undefined) child.stdin.end(options.input);
  });
}
