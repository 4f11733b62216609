import { PersistenceError, type TaskStore } from '@troupe/core';

/** Delays between tries while the server is away (ms): 100, doubling to 2 s. */
export const AWAY_RETRY_MS = [100, 200, 400, 800, 1_600, 2_000];

/** Waits `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** True for an error that says the store could not be reached, not that what it holds is bad. */
export function isStoreAway(error: unknown): boolean {
  return PersistenceError.isInstance(error) && error.code === 'PERSISTENCE_FAILED';
}

/**
 * `read`, again while it fails to reach the server (`PERSISTENCE_FAILED`), waiting 100 ms,
 * doubling to 2 s, until `stopped()`; any other error (a corrupt document's) passes through at once.
 */
export async function whileStoreAway<T>(
  read: () => Promise<T>,
  stopped: () => boolean,
  wait: (ms: number) => Promise<void> = sleep,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (!isStoreAway(error) || stopped()) throw error;
      await wait(AWAY_RETRY_MS[Math.min(attempt, AWAY_RETRY_MS.length - 1)]!);
    }
  }
}

/**
 * `store` with its journal and snapshot reads tried again while the server is away (see
 * {@link whileStoreAway}): what a worker's teams read a team's journal through, so a lost
 * connection while a team is taken over or followed does not fail it.
 */
export function readingAgain<TStore extends TaskStore>(store: TStore, stopped: () => boolean): TStore {
  return {
    ...store,
    loadJournal: (taskId: string) => whileStoreAway(() => store.loadJournal(taskId), stopped),
    loadSnapshot: (taskId: string) => whileStoreAway(() => store.loadSnapshot(taskId), stopped),
  };
}
