import { spawn } from 'node:child_process';

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
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (options.input !== undefined) child.stdin.end(options.input);
  });
}
