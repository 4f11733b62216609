import { readdirSync, readFileSync } from 'node:fs';

/** The environment variable every process of one `bash` call inherits, carrying the call's tag. */
export const JOB_TAG_VARIABLE = 'TROUPE_BASH_JOB';

/** Fields 3 on of `/proc/<pid>/stat` (state, ppid, pgrp, session, ..., start time at 19). */
function statFields(pid: number | string): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** A session a call's launcher leads, told apart from a later process given the same pid. */
export interface JobSession {
  /** The launcher's pid, which is the session id. */
  id: number;
  /** The launcher's start time (clock ticks after boot), as read when it started. */
  startTime: string;
}

/** The session `pid` (a launcher just started with `setsid`) leads; `undefined` without `/proc`. */
export function jobSession(pid: number): JobSession | undefined {
  try {
    return { id: pid, startTime: statFields(pid)[19]! };
  } catch {
    return undefined;
  }
}

/** Whether the session's pid now belongs to another process (so its id names another session). */
function reused(session: JobSession): boolean {
  try {
    return statFields(session.id)[19] !== session.startTime;
  } catch {
    return false; // The launcher is gone and its pid unused: members still carry its session id.
  }
}

/**
 * The processes of one `bash` call found through `/proc` (Linux) where no cgroup holds them: those
 * still in the session `session` (the launcher's; it covers jobs that only left the process
 * group, e.g. under `set -m`) or still carrying `tag` in their environment (jobs that left the
 * session with `setsid` but kept the environment). A process that left the session and cleared
 * its environment (`unset TROUPE_BASH_JOB; setsid -f ...`, `env -i setsid ...`) is not found:
 * only a cgroup catches it. Returns an empty list where `/proc` is not available.
 */
export function findTaggedProcesses(tag: string, session?: JobSession): number[] {
  const needle = `${JOB_TAG_VARIABLE}=${tag}`;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  const sessionId = session === undefined || reused(session) ? undefined : session.id;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      if (sessionId !== undefined && Number(statFields(entry)[3]) === sessionId) {
        found.push(pid);
        continue;
      }
      const environment = readFileSync(`/proc/${entry}/environ`, 'latin1');
      if (environment.split('\0').includes(needle)) found.push(pid);
    } catch {
      // Gone already, or not ours to read.
    }
  }
  return found;
}

/**
 * Sends `signal` to every process of a call found by {@link findTaggedProcesses}. Returns how
 * many were signalled.
 */
export function signalTaggedProcesses(tag: string, signal: NodeJS.Signals, session?: JobSession): number {
  let count = 0;
  for (const pid of findTaggedProcesses(tag, session)) {
    try {
      process.kill(pid, signal);
      count++;
    } catch {
      // Exited meanwhile.
    }
  }
  return count;
}
