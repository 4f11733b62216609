import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Which process runs a detached `troupe run --background` task: `<store>/runs/<taskId>.pid`,
 * written by that process when it starts and removed when it ends, so `troupe tasks cancel` can
 * reach it.
 */
function runFile(storeDir: string, taskId: string): string {
  return join(storeDir, 'runs', `${taskId}.pid`);
}

/** Records this process as the runner of `taskId`; returns the function that removes the record. */
export function registerRun(storeDir: string, taskId: string): () => void {
  const file = runFile(storeDir, taskId);
  mkdirSync(join(storeDir, 'runs'), { recursive: true });
  writeFileSync(file, String(process.pid));
  return () => {
    try {
      unlinkSync(file);
    } catch {
      // Already removed.
    }
  };
}

/** The pid of the live process running `taskId`, if any (a stale record is ignored). */
export function runnerOf(storeDir: string, taskId: string): number | undefined {
  let pid: number;
  try {
    pid = Number(readFileSync(runFile(storeDir, taskId), 'utf8').trim());
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}
