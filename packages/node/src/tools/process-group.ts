import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { JOB_TAG_VARIABLE, type JobSession, jobSession, signalTaggedProcesses } from './escaped-jobs.js';
import { createJobCgroup, type JobCgroup } from './job-cgroup.js';
import { OutputCollector } from './output-collector.js';

/**
 * The launcher: a shell whose own environment is the command's clean one runs the command as its
 * child, so that the command's parent (`/proc/$PPID/environ`) holds no secret of troupe's. Given a
 * cgroup directory, it moves itself into it first, so the command starts inside. It exits as the
 * command did (re-raising the signal that killed it).
 */
const LAUNCHER =
  'if [ -n "$2" ]; then echo $$ > "$2/cgroup.procs" 2>/dev/null; fi; "$0" -c "$1"; status=$?; if [ "$status" -gt 128 ]; then trap - TERM INT HUP; kill -s "$((status - 128))" $$; fi; exit "$status"';

/** What {@link runInProcessGroup} needs. */
export interface ProcessGroupCommand {
  shell: string;
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Time between SIGTERM and SIGKILL when the group is killed, in ms. */
  killGraceMs: number;
  maxOutputChars: number;
  signal: AbortSignal;
  /** Run the call in a cgroup of its own where one can be made (see `createJobCgroup`). */
  useCgroup: boolean;
}

/** How a command ended. */
export interface ProcessGroupResult {
  /** stdout and stderr interleaved as they arrived, truncated in the middle past the cap. */
  output: string;
  exitCode: number | null;
  /** The signal that ended the shell, if one did. */
  exitSignal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
}

/** A call still running: its job tag and cgroup, if any. */
interface LiveJob {
  tag: string;
  cgroup: JobCgroup | undefined;
  session: JobSession | undefined;
}

/** Process groups still running (by leader pid), killed if this process exits first. */
const liveGroups = new Map<number, LiveJob>();
let exitHookInstalled = false;

function killGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // ESRCH: no process left in the group.
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const [pid, { tag, cgroup, session }] of liveGroups) {
      killGroup(pid, 'SIGKILL');
      cgroup?.kill();
      signalTaggedProcesses(tag, 'SIGKILL', session);
    }
  });
}

/**
 * Runs `shell -c command` as the leader of a new process group (detached), capturing stdout and
 * stderr together. On timeout or abort the whole group gets SIGTERM, then SIGKILL after the grace
 * time; when the shell exits, whatever it left running in its group is killed the same way. The
 * promise settles once every pipe is closed, i.e. once no process holding the output is left.
 * Rejects only when the shell cannot be started.
 */
export function runInProcessGroup(options: ProcessGroupCommand): Promise<ProcessGroupResult> {
  return new Promise((resolve, reject) => {
    const collector = new OutputCollector(options.maxOutputChars);
    // Every process of this call inherits the tag, so jobs that leave the process group are found.
    const tag = randomBytes(12).toString('hex');
    // Where it can be made, a cgroup holds every process of the call, whatever the command does.
    const cgroup = options.useCgroup ? createJobCgroup(tag) : undefined;
    const child = spawn(options.shell, ['-c', LAUNCHER, options.shell, options.command, cgroup?.path ?? ''], {
      cwd: options.cwd,
      env: { ...options.env, [JOB_TAG_VARIABLE]: tag },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let timedOut = false;
    let aborted = false;
    let terminating = false;
    let killTimer: NodeJS.Timeout | undefined;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    const pid = child.pid;
    const session = pid === undefined ? undefined : jobSession(pid);

    const terminate = () => {
      if (terminating || pid === undefined) return;
      terminating = true;
      killGroup(pid, 'SIGTERM');
      killTimer = setTimeout(() => {
        killGroup(pid, 'SIGKILL');
        cgroup?.kill();
      }, options.killGraceMs);
    };
    const onAbort = () => {
      aborted = true;
      terminate();
    };
    const timeout = setTimeout(() => {
      timedOut = true;
      terminate();
    }, options.timeoutMs);

    if (pid !== undefined) {
      liveGroups.set(pid, { tag, cgroup, session });
      installExitHook();
    }
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });

    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (text: string) => collector.push(text));
    child.stderr.on('data', (text: string) => collector.push(text));

    child.on('error', (error) => {
      clearTimeout(timeout);
      options.signal.removeEventListener('abort', onAbort);
      if (pid !== undefined) liveGroups.delete(pid);
      cgroup?.removeWhenEmpty();
      reject(error);
    });
    child.on('exit', (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      // Background jobs the shell left behind would otherwise outlive the command: those still in
      // its group get the group's SIGTERM then SIGKILL; those that left it (setsid) are killed now:
      // all of the cgroup, or else those still in its session or still carrying the tag.
      if (pid !== undefined && killGroup(pid, 0)) terminate();
      killEscaped();
    });
    const killEscaped = () => {
      cgroup?.kill();
      signalTaggedProcesses(tag, 'SIGKILL', session);
    };
    child.on('close', () => {
      killEscaped();
      cgroup?.removeWhenEmpty();
      clearTimeout(timeout);
      options.signal.removeEventListener('abort', onAbort);
      if (pid !== undefined) {
        if (killTimer && !killGroup(pid, 0)) clearTimeout(killTimer);
        else killTimer?.unref();
        liveGroups.delete(pid);
      }
      resolve({ output: collector.text(), exitCode, exitSignal, timedOut, aborted });
    });
  });
}
