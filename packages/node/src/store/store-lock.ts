import { closeSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { PersistenceError, type PersistenceErrorCode } from '@troupe/core';
import { onThisHost, type StoredProcess, storedProcessOf, THIS_HOST } from './host-identity.js';
import { processAlive, processStart } from './process-liveness.js';
import { readRegularFileSync } from './regular-files.js';

/**
 * Who holds a lock file (its process, see `StoredProcess`): written into it when the lock is
 * taken. `hostId` and `start` are absent in locks of older troupes and off Linux.
 */
export interface LockHolder extends StoredProcess {
  /** When the lock was taken, in ms since the epoch. */
  at: number;
}

/** A lock file this process holds. */
export interface HeldLock {
  /** Removes the lock file (nothing happens when it is already gone). */
  release(): void;
  /** The previous holder, when a stale lock was taken over. */
  takenOver?: LockHolder;
}

/** What a lock is for, and how its holder is judged stale. */
export interface LockOptions {
  /**
   * Age after which another holder's lock is taken over, in ms. `Infinity`: only a lock whose
   * holder is a dead process on this host is taken over.
   */
  staleMs: number;
  /** What the holder does, for the refusal: "being pruned", "being restored". */
  activity: string;
  /** The store directory, named in the refusal. */
  store: string;
  /** The refusal's code. */
  code: PersistenceErrorCode;
  /** What the refused caller should do, appended to the refusal. */
  advice: string;
}

/** A lock file without a readable holder this old was left by a writer that died mid-write. */
const UNREADABLE_STALE_MS = 60_000;

/** The holder written in the lock file at `path`, or undefined when it cannot be read. */
export function readHolder(path: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readRegularFileSync(path)) as { at?: unknown } | null;
    const process = storedProcessOf(holder);
    return process && typeof holder?.at === 'number' ? { ...process, at: holder.at } : undefined;
  } catch {
    return undefined;
  }
}

function createLockFile(path: string): boolean {
  try {
    const fd = openSync(path, 'wx');
    try {
      writeSync(fd, JSON.stringify(selfHolder()));
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new PersistenceError(
      'PERSISTENCE_FAILED',
      `Cannot create the lock file "${path}": ${(error as Error).message}`,
      { path, cause: error },
    );
  }
}

/** This process as a lock's holder, taken now. */
export function selfHolder(): LockHolder {
  const holder: LockHolder = { pid: process.pid, ...THIS_HOST, at: Date.now() };
  const start = processStart('self');
  if (start !== undefined) holder.start = start;
  return holder;
}

/**
 * Takes the lock file at `path` (created with O_EXCL, holding this process's pid, host and time).
 * A lock whose holder is a dead process on this host (gone, a zombie, or its pid reused), or older than `staleMs` (a minute when its
 * holder cannot be read), is taken over once (the result names the previous holder). Throws a `PersistenceError` with `options.code` naming the
 * store, the lock file and its holder (pid, host, since when) when another live process holds it.
 */
export function acquireLock(path: string, options: LockOptions): HeldLock {
  let takenOver: LockHolder | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (createLockFile(path)) {
      const release = () => {
        try {
          unlinkSync(path);
        } catch {
          // Already gone (taken over as stale); nothing to release.
        }
      };
      return takenOver ? { release, takenOver } : { release };
    }
    const holder = readHolder(path);
    const since = holder?.at ?? statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    // A holder on this host that is gone, a zombie, or whose pid now names another process.
    const dead = holder !== undefined && onThisHost(holder) && !processAlive(holder.pid, holder.start);
    const age = Date.now() - since;
    const stale = age > options.staleMs || (holder === undefined && age > UNREADABLE_STALE_MS);
    if (attempt === 0 && (dead || stale)) {
      takenOver = holder ?? { pid: -1, host: 'unknown', at: since };
      try {
        unlinkSync(path);
      } catch {
        // Someone else removed it first; try to take it.
      }
      continue;
    }
    const who = holder ? `process ${holder.pid} on ${holder.host}` : 'another process';
    throw new PersistenceError(
      options.code,
      `The task store "${options.store}" is ${options.activity} by ${who} since ${new Date(since).toISOString()} (lock file "${path}"). ${options.advice}`,
      { path, details: holder ? { holder } : {} },
    );
  }
  throw new PersistenceError('PERSISTENCE_FAILED', `Cannot take the lock file "${path}".`, { path });
}
