import { mkdirSync } from 'node:fs';
import type { StoreWarning } from '@troupe/core';
import { acquireLock, type HeldLock } from './store-lock.js';
import type { StorePaths } from './task-file-names.js';

/** Restore locks this process holds, released if it exits without closing their stores. */
const held = new Set<HeldLock>();
let exitHookInstalled = false;

function releaseAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const lock of held) lock.release();
  });
}

/**
 * Takes `restore.lock` in the store directory for this process (see `TaskStore.lockForRestore`).
 * A lock left by a dead process on this host is taken over with a `PERSISTENCE_LOCK_TAKEN`
 * warning; a live holder (on any host, however old its lock) is refused with `PERSISTENCE_LOCKED`
 * naming the holder. The lock is released by `release()` or when the process exits.
 */
export function takeRestoreLock(paths: StorePaths): { release(): void; warnings: StoreWarning[] } {
  mkdirSync(paths.dir, { recursive: true });
  const lock = acquireLock(paths.restoreLock, {
    staleMs: Number.POSITIVE_INFINITY,
    activity: 'being restored',
    store: paths.dir,
    code: 'PERSISTENCE_LOCKED',
    advice:
      'Its unfinished tasks belong to that runtime: shut it down before restoring here, or delete the lock file if that process is gone (e.g. on another host that crashed).',
  });
  held.add(lock);
  releaseAllOnExit();
  const warnings: StoreWarning[] = [];
  const previous = lock.takenOver;
  if (previous) {
    warnings.push({
      code: 'PERSISTENCE_LOCK_TAKEN',
      message: `Took over the restore lock "${paths.restoreLock}" left by process ${previous.pid} on ${previous.host} (taken ${new Date(previous.at).toISOString()}), which is no longer running; its unfinished tasks are resumed here.`,
      path: paths.restoreLock,
    });
  }
  return {
    warnings,
    release() {
      held.delete(lock);
      lock.release();
    },
  };
}
