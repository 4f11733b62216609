/** A held writer lock; `release()` lets the next tab take it. */
export interface WriterLock {
  release(): void;
}

/**
 * Takes the Web Lock `name` (`navigator.locks`), held until `release()`: the one writer of a task
 * store among the tabs of an origin. With `wait: false`, resolves undefined at once when another
 * tab holds it. Where the Web Locks API is absent (Node, tests), the lock is granted at once: there
 * is no other tab to share the store with.
 */
export function acquireWriterLock(
  name: string,
  options: { wait: boolean; signal?: AbortSignal },
): Promise<WriterLock | undefined> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (!locks) return Promise.resolve({ release() {} });
  return new Promise((resolve, reject) => {
    const lockOptions: LockOptions = options.wait
      ? options.signal
        ? { mode: 'exclusive', signal: options.signal }
        : { mode: 'exclusive' }
      : { mode: 'exclusive', ifAvailable: true };
    locks
      .request(name, lockOptions, (lock) => {
        if (!lock) {
          resolve(undefined);
          return undefined;
        }
        // The lock is held until the promise returned here settles.
        return new Promise<void>((release) => resolve({ release: () => release() }));
      })
      .catch(reject);
  });
}

/**
 * Who holds the Web Lock `name`, for an error message: "the client <id> (exclusive)" from
 * `navigator.locks.query()`, or undefined when it cannot be told (no Web Locks API, not held).
 */
export async function describeWriterLockHolder(name: string): Promise<string | undefined> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  const held = (await locks?.query().catch(() => undefined))?.held?.find((lock) => lock.name === name);
  if (!held) return undefined;
  return held.clientId ? `client ${held.clientId}` : 'another client';
}
