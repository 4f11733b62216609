import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { PersistenceError } from '@troupe/core';

interface LockOwner {
  pid: number;
  host: string;
  at: number;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(path: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
    return typeof owner.pid === 'number' && typeof owner.at === 'number' ? owner : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the lock file at `path` (created with O_EXCL, holding the owner's pid, host and time) and
 * returns its release function. A lock whose owner is a dead process on this host, or older than
 * `staleMs`, is taken over. Throws a `PersistenceError` (PERSISTENCE_FAILED) naming the owner when
 * another live process holds it.
 */
export function acquireLock(path: string, staleMs: number): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      try {
        writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now() }));
      } finally {
        closeSync(fd);
      }
      return () => {
        try {
          unlinkSync(path);
        } catch {
          // Already gone (taken over as stale); nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new PersistenceError(
          'PERSISTENCE_FAILED',
          `Cannot create the lock file "${path}": ${(error as Error).message}`,
          {
            path,
            cause: error,
          },
        );
      }
    }
    const owner = readOwner(path);
    const since = owner?.at ?? statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    const dead = owner !== undefined && owner.host === hostname() && !isAlive(owner.pid);
    if (attempt === 0 && (dead || Date.now() - since > staleMs)) {
      try {
        unlinkSync(path);
      } catch {
        // Someone else removed it first; try to take it.
      }
      continue;
    }
    const who = owner ? `process ${owner.pid} on ${owner.host}` : 'another process';
    throw new PersistenceError(
      'PERSISTENCE_FAILED',
      `The task store is being pruned by ${who} (lock file "${path}", taken ${new Date(since).toISOString()}). Try again later, or delete the lock file if that process is gone.`,
      { path },
    );
  }
  throw new PersistenceError('PERSISTENCE_FAILED', `Cannot take the lock file "${path}".`, { path });
}
