import { readdirSync, readFileSync } from 'node:fs';

/** The environment variable every process of one `bash` call inherits, carrying the call's tag. */
export const JOB_TAG_VARIABLE = 'TROUPE_BASH_JOB';

/**
 * Processes still carrying `tag` in their environment (Linux, through `/proc`): the processes of
 * one `bash` call, including background jobs that left its process group and session
 * (`setsid`, `nohup ... &`, double forks). A process that clears or replaces its environment
 * (`env -i`) is not found. Returns an empty list where `/proc` is not available.
 */
export function findTaggedProcesses(tag: string): number[] {
  const needle = `${JOB_TAG_VARIABLE}=${tag}`;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      const environment = readFileSync(`/proc/${entry}/environ`, 'latin1');
      if (environment.split('\0').includes(needle)) found.push(pid);
    } catch {
      // Gone already, or not ours to read.
    }
  }
  return found;
}

/** Sends `signal` to every process still tagged with `tag`. Returns how many were signalled. */
export function signalTaggedProcesses(tag: string, signal: NodeJS.Signals): number {
  let count = 0;
  for (const pid of findTaggedProcesses(tag)) {
    try {
      process.kill(pid, signal);
      count++;
    } catch {
      // Exited meanwhile.
    }
  }
  return count;
}
