import { readFileSync } from 'node:fs';

// Whether a process recorded in a store file (a task's owner, a lock's holder) still runs. `kill(pid,
// 0)` alone is not enough: it succeeds on a zombie (a process killed and not yet reaped by its
// parent), and on a new process that reused the pid. /proc/<pid>/stat gives both the state (Z, X:
// dead) and the start time (clock ticks since boot) to compare with the one recorded.

/** What /proc/<pid>/stat says of a process (Linux), or undefined where there is no /proc. */
interface ProcessStat {
  /** R, S, D, T, Z (zombie), X (dead), … */
  state: string;
  /** Start time in clock ticks since boot. */
  start: number | undefined;
}

function statOf(pid: number | 'self'): ProcessStat | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = Number(fields[19]);
  return { state: fields[0] ?? '', start: Number.isFinite(start) ? start : undefined };
}

/** When the process `pid` started (Linux: field 22 of `/proc/<pid>/stat`), or undefined. */
export function processStart(pid: number | 'self'): number | undefined {
  return statOf(pid)?.start;
}

/**
 * Whether the process `pid` on this host runs: it exists (or exists under another user), is not
 * a zombie or dead, and, when `start` is given and /proc can tell, started at `start` (so a pid
 * reused by a new process does not pass for the old one). Where there is no /proc, `kill(pid, 0)`
 * decides alone.
 */
export function processAlive(pid: number, start?: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = statOf(pid);
  if (!stat) return true;
  if (stat.state === 'Z' || stat.state === 'X' || stat.state === 'x') return false;
  return start === undefined || stat.start === undefined || stat.start === start;
}
