import { PersistenceError } from '@troupe/core';
import type { UseStore } from 'idb-keyval';
import { type DocumentWrites, writeDocuments } from './idb-documents.js';
import { tasksOf, type WriteBatch } from './pending-writes.js';

/** What went wrong writing a batch, and whether the batch must be kept to be written again. */
export interface BatchFailure {
  error: PersistenceError;
  /** True when nothing of the batch was written (put it back); false when only snapshots were lost. */
  keep: boolean;
}

/**
 * Writes a batch in one transaction: it lands whole or not at all. Snapshots are produced here
 * (the latest state, agreeing with the journal entries written with it); a snapshot whose
 * producer throws is dropped with an error, the rest is written. Returns the failure, if any.
 */
export async function writeBatch(
  use: UseStore,
  batch: WriteBatch,
  database: string,
): Promise<BatchFailure | undefined> {
  const writes: DocumentWrites = {
    statuses: batch.statuses.map((status) => status.text),
    journals: [...batch.journals].flatMap(([taskId, entries]) =>
      [...entries].map(([seq, text]): [string, number, string] => [taskId, seq, text]),
    ),
    snapshots: [],
    results: [...batch.results],
  };
  let produceError: PersistenceError | undefined;
  for (const [taskId, produce] of batch.snapshots) {
    try {
      writes.snapshots.push([taskId, JSON.stringify(produce())]);
    } catch (error) {
      batch.snapshots.delete(taskId);
      produceError ??= new PersistenceError(
        'PERSISTENCE_FAILED',
        `Could not produce the snapshot of task ${taskId}: ${(error as Error).message}`,
        { path: `indexeddb:${database}/snapshot/${taskId}`, cause: error },
      );
    }
  }
  try {
    await writeDocuments(use, writes);
  } catch (error) {
    const name = (error as { name?: string } | null)?.name ?? 'Error';
    const tasks = tasksOf(batch).join(', ');
    const what =
      name === 'QuotaExceededError'
        ? `IndexedDB is out of space (QuotaExceededError): the browser's storage quota for this origin is used up`
        : `IndexedDB refused the write (${name}: ${(error as Error)?.message ?? String(error)})`;
    const message = `${what}. The writes of task${tasksOf(batch).length === 1 ? '' : 's'} ${tasks} are kept in memory and tried again at the next flush; free space (prune old tasks) or they are lost when the page closes.`;
    return {
      error: new PersistenceError('PERSISTENCE_FAILED', message, {
        path: `indexeddb:${database}`,
        cause: error,
      }),
      keep: true,
    };
  }
  return produceError ? { error: produceError, keep: false } : undefined;
}
