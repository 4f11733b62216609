import { spawn } from 'node:child_process';

/** How one shell hook ended. */
export interface ShellHookRun {
  /** The exit code; null when it was killed (timed out, aborted) or could not start. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Why it could not start, if it did not. */
  failed?: string;
}

/** What {@link runShellHook} runs. */
export interface ShellHookCommand {
  command: string;
  /** JSON written to its stdin. */
  input: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** The most characters of stdout and of stderr kept (each); the rest is cut with a note. */
  maxOutputChars: number;
  signal?: AbortSignal;
}

/** Collects one stream up to a cap (in characters), then only counts. */
class CappedText {
  private text = '';
  private dropped = 0;
  constructor(private readonly cap: number) {}
  add(chunk: string): void {
    const room = this.cap - this.text.length;
    if (room > 0) this.text += chunk.slice(0, room);
    if (chunk.length > room) this.dropped += chunk.length - Math.max(0, room);
  }
  value(): string {
    return this.dropped ? `${this.text}\n[hook output cut: ${this.dropped} more characters]` : this.text;
  }
}

/**
 * Runs one hook command with `sh -c` in a process group of its own, its input on stdin. At
 * `timeoutMs` (or when `signal` aborts) the whole group is killed (SIGKILL: a hook that hangs may
 * ignore SIGTERM), so a hook's children do not outlive it. stdout and stderr are capped each.
 * Never rejects.
 */
export function runShellHook(run: ShellHookCommand): Promise<ShellHookRun> {
  return new Promise((resolve) => {
    const stdout = new CappedText(run.maxOutputChars);
    const stderr = new CappedText(run.maxOutputChars);
    let timedOut = false;
    let settled = false;
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn('/bin/sh', ['-c', run.command], {
        cwd: run.cwd,
        env: run.env,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    } catch (error) {
      resolve({ exitCode: null, stdout: '', stderr: '', timedOut: false, failed: (error as Error).message });
      return;
    }
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, run.timeoutMs);
    const onAbort = () => killGroup();
    run.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (result: Omit<ShellHookRun, 'stdout' | 'stderr' | 'timedOut'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      // Children the hook left behind in its group go with it.
      killGroup();
      resolve({ ...result, stdout: stdout.value(), stderr: stderr.value(), timedOut });
    };
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => stdout.add(chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderr.add(chunk));
    child.on('error', (error) => finish({ exitCode: null, failed: error.message }));
    // 'close' waits for the pipes, which a background child of the hook may hold: shortly after the
    // hook itself exits, its group is killed, which closes them.
    let exitCode: number | null = null;
    child.on('exit', (code) => {
      exitCode = timedOut ? null : code;
      setTimeout(killGroup, 200).unref();
    });
    child.on('close', (code) => finish({ exitCode: timedOut ? null : (exitCode ?? code) }));
    child.stdin?.on('error', () => {}); // a hook that does not read its input closes the pipe early
    child.stdin?.end(run.input);
  });
}
