import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** The environment variable that marks every process a stdio server starts (value: a random id). */
export const SERVER_MARKER_VARIABLE = 'TROUPE_MCP_SERVER';

const hasProc = existsSync('/proc/self/stat');

interface ProcessEntry {
  pid: number;
  parent: number;
  group: number;
}

/** Every process Linux's /proc shows (empty on other systems): pid, parent and process group. */
function processTable(): ProcessEntry[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const entries: ProcessEntry[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (command) state ppid pgrp ...": the command may hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      entries.push({ pid: Number(name), parent: Number(fields[1]), group: Number(fields[2]) });
    } catch {
      // Gone while reading.
    }
  }
  return entries;
}

/**
 * The processes that descend from `root` (its children, theirs, …) or sit in its process group,
 * read from /proc now (Linux; elsewhere an empty list). A process whose parent already exited
 * has been handed to init and is not found this way; see {@link processesMarked}.
 */
export function descendantsOf(root: number): number[] {
  const table = processTable();
  const children = new Map<number, number[]>();
  for (const entry of table) {
    const siblings = children.get(entry.parent) ?? [];
    siblings.push(entry.pid);
    children.set(entry.parent, siblings);
  }
  const found = new Set<number>();
  const queue = [root, ...table.filter((entry) => entry.group === root).map((entry) => entry.pid)];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    for (const child of children.get(pid) ?? []) {
      if (found.has(child) || child === root) continue;
      found.add(child);
      queue.push(child);
    }
    if (pid !== root) found.add(pid);
  }
  return [...found];
}

/**
 * The processes whose environment holds `SERVER_MARKER_VARIABLE=<one of markers>` (Linux,
 * processes of this user; elsewhere an empty list): whatever a server started, however it
 * detached, unless it cleared its environment. One pass over /proc for every marker.
 */
export function processesMarked(markers: ReadonlySet<string>): number[] {
  if (markers.size === 0) return [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const prefix = `${SERVER_MARKER_VARIABLE}=`;
  const found: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let environment: string;
    try {
      environment = readFileSync(`/proc/${name}/environ`, 'latin1');
    } catch {
      continue; // gone, or another user's
    }
    if (!environment.includes(prefix)) continue;
    const marked = environment
      .split('\0')
      .some((entry) => entry.startsWith(prefix) && markers.has(entry.slice(prefix.length)));
    if (marked) found.push(Number(name));
  }
  return found;
}

/** Sends `signal` to each pid, ignoring those already gone. */
export function signalAll(pids: Iterable<number>, signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/** True while `pid` runs: it exists and is not a zombie (Linux reads its state from /proc). */
export function isRunning(pid: number): boolean {
  if (hasProc) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops processes: SIGTERM to each pid, then SIGKILL to those still running after `graceMs`,
 * then SIGKILL once more to whatever `current()` finds (what they started meanwhile).
 */
export async function terminate(
  pids: readonly number[],
  graceMs: number,
  current: () => number[] = () => [],
): Promise<void> {
  const running = () => pids.filter(isRunning);
  if (running().length === 0) return;
  signalAll(pids, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (running().length > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 25));
  signalAll(running(), 'SIGKILL');
  signalAll(current(), 'SIGKILL');
}
