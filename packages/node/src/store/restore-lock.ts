import { mkdirSync, rmSync } from 'node:fs';
import { PersistenceError, type StoreWarning } from '@troupe/core';
import { onThisHost } from './host-identity.js';
import { acquireLock, type HeldLock, type LockHolder, readHolder, selfHolder } from './store-lock.js';
import type { StorePaths } from './task-file-names.js';
import { beatFile, type HeartbeatOptions } from './task-owner.js';

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

const ADVICE =
  'Its unfinished tasks belong to that runtime: shut it down before restoring here, or delete the lock file if that process is gone.';

/**
 * Takes `restore.lock` in the store directory for this process (see `TaskStore.lockForRestore`)
 * and rewrites it every `heartbeatMs` while held, so other hosts sharing the directory can tell it
 * is alive. A lock left by a dead process on this host is taken over at once, with a
 * `PERSISTENCE_LOCK_TAKEN` warning; one held on another host is watched: if it changes within
 * `deadAfterMs` its holder is alive and the call is refused with `PERSISTENCE_LOCKED` naming it,
 * otherwise (that host stopped beating: crashed, frozen, cut off) it is taken over with a warning
 * saying for how long it was silent. The lock is released by `release()` or when the process exits.
 */
export async function takeRestoreLock(
  paths: StorePaths,
  heartbeat: HeartbeatOptions,
): Promise<{ release(): void; warnings: StoreWarning[] }> {
  mkdirSync(paths.dir, { recursive: true });
  const take = () =>
    acquireLock(paths.restoreLock, {
      staleMs: Number.POSITIVE_INFINITY,
      activity: 'being restored',
      store: paths.dir,
      code: 'PERSISTENCE_LOCKED',
      advice: ADVICE,
    });
  let lock: HeldLock;
  let silentHost: { holder: LockHolder; silentMs: number } | undefined;
  try {
    lock = take();
  } catch (error) {
    const holder = readHolder(paths.restoreLock);
    if (
      !(error instanceof PersistenceError) ||
      error.code !== 'PERSISTENCE_LOCKED' ||
      !holder ||
      onThisHost(holder)
    )
      throw error;
    const silentMs = await silenceOf(paths.restoreLock, heartbeat);
    if (silentMs === 'beating') throw error;
    if (silentMs !== 'gone') {
      silentHost = { holder, silentMs };
      rmSync(paths.restoreLock, { force: true });
    }
    lock = take();
  }
  const me = selfHolder();
  const stopBeating = beatFile(paths.restoreLock, me, heartbeat.heartbeatMs, () => {
    const now = readHolder(paths.restoreLock);
    return now?.pid === me.pid && now.hostId === me.hostId && now.host === me.host && now.start === me.start;
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
  } else if (silentHost) {
    const { holder, silentMs } = silentHost;
    warnings.push({
      code: 'PERSISTENCE_LOCK_TAKEN',
      message: `Took over the restore lock "${paths.restoreLock}" of process ${holder.pid} on host ${holder.host} (taken ${new Date(holder.at).toISOString()}): its heartbeat stopped (the lock did not change for ${Math.round(silentMs)} ms; a host is taken for gone after ${heartbeat.deadAfterMs} ms). Its unfinished tasks are resumed here.`,
      path: paths.restoreLock,
    });
  }
  return {
    warnings,
    release() {
      stopBeating();
      held.delete(lock);
      lock.release();
    },
  };
}

/**
 * Watches the lock file at `path`, held on another host, until it changes (`beating`), disappears
 * (`gone`) or has stayed the same for `deadAfterMs` (returns for how long, in ms).
 */
async function silenceOf(path: string, heartbeat: HeartbeatOptions): Promise<number | 'beating' | 'gone'> {
  const step = Math.max(10, Math.min(heartbeat.heartbeatMs, heartbeat.deadAfterMs / 4));
  let first = true;
  for (;;) {
    const silent = heartbeat.watch.silentFor(path);
    if (silent === undefined) return 'gone';
    if (silent === 0 && !first) return 'beating';
    if (silent >= heartbeat.deadAfterMs) return silent;
    first = false;
    await new Promise((resolve) => setTimeout(resolve, step));
  }
}
