import { PersistenceError, type Runtime } from '@troupe/core';
import { AWAY_RETRY_MS, isStoreAway, sleep } from './while-store-away.js';

/**
 * Brings back a task a worker claimed after it had started elsewhere (on a worker since taken for
 * dead): `runtime.restore({ taskIds: [taskId] })`, which reads that task alone by id, from its
 * snapshot and journal. Restored again while the store cannot be read (a lost connection mid-restore
 * must not pass for a corrupt task, which would fail it for good), waiting 100 ms, doubling to 2 s,
 * until `stopped()`. Resolves true once the runtime holds the task (running, or ended as corrupt),
 * false when the store has no such task; rejects with what the restore threw for any other reason,
 * or with the store's failure once stopped.
 */
export async function resumeClaimedTask(
  runtime: Pick<Runtime, 'restore' | 'get'>,
  taskId: string,
  stopped: () => boolean,
  wait: (ms: number) => Promise<void> = sleep,
): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    let failure: unknown;
    try {
      const { warnings } = await runtime.restore({ taskIds: [taskId] });
      if (runtime.get(taskId)) return true;
      // Left unfinished because its documents could not be read (the store failed, not the task).
      const unavailable = warnings.find((warning) => warning.code === 'PERSISTENCE_FAILED');
      if (!unavailable) return false;
      failure = new PersistenceError('PERSISTENCE_FAILED', unavailable.message);
    } catch (error) {
      if (!isStoreAway(error)) throw error;
      failure = error;
    }
    if (stopped()) throw failure;
    await wait(AWAY_RETRY_MS[Math.min(attempt, AWAY_RETRY_MS.length - 1)]!);
  }
}
