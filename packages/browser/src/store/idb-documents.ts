import { promisifyRequest, type UseStore } from 'idb-keyval';
import {
  journalKey,
  journalRange,
  resultKey,
  STATUS_SEQ_KEY,
  snapshotKey,
  statusKey,
  statusRange,
} from './store-keys.js';

// The IndexedDB side of the task store: each function is one transaction through idb-keyval's
// `UseStore`, so a batch of writes lands whole or not at all.

/** Texts to write in one transaction; status texts get the next numbers of the status log. */
export interface DocumentWrites {
  statuses: string[];
  journals: [taskId: string, seq: number, text: string][];
  snapshots: [taskId: string, text: string][];
  results: [taskId: string, text: string][];
}

/** Writes `writes` in one readwrite transaction; rejects with the transaction's error. */
export function writeDocuments(use: UseStore, writes: DocumentWrites): Promise<void> {
  return use('readwrite', (store) => {
    const done = promisifyRequest(store.transaction);
    try {
      for (const [taskId, seq, text] of writes.journals) store.put(text, journalKey(taskId, seq));
      for (const [taskId, text] of writes.snapshots) store.put(text, snapshotKey(taskId));
      for (const [taskId, text] of writes.results) store.put(text, resultKey(taskId));
      if (writes.statuses.length > 0) {
        // The counter is read and advanced inside the transaction: two writers never share a number.
        const counter = store.get(STATUS_SEQ_KEY);
        counter.onsuccess = () => {
          let seq = typeof counter.result === 'number' ? counter.result : 0;
          for (const text of writes.statuses) store.put(text, statusKey(seq++));
          store.put(seq, STATUS_SEQ_KEY);
        };
      }
    } catch (error) {
      done.catch(() => undefined); // The abort below rejects it; the caller gets `error` instead.
      store.transaction.abort();
      throw error;
    }
    return done;
  });
}

/** The status log from record number `from` on (all of it by default): each record's text with its number, in order. */
export function readStatusLog(use: UseStore, from?: number): Promise<{ seq: number; value: unknown }[]> {
  return use('readonly', async (store) => {
    const [keys, values] = await Promise.all([
      promisifyRequest(store.getAllKeys(statusRange(from))),
      promisifyRequest(store.getAll(statusRange(from))),
    ]);
    return keys.map((key, index) => ({ seq: (key as [string, number])[1], value: values[index] }));
  });
}

/** A task's journal: each entry's stored value with the position it was stored at, in order. */
export function readJournal(use: UseStore, taskId: string): Promise<{ seq: number; value: unknown }[]> {
  return use('readonly', async (store) => {
    const [keys, values] = await Promise.all([
      promisifyRequest(store.getAllKeys(journalRange(taskId))),
      promisifyRequest(store.getAll(journalRange(taskId))),
    ]);
    return keys.map((key, index) => ({ seq: (key as [string, string, number])[2], value: values[index] }));
  });
}

/** One stored value, or undefined. */
export function readValue(use: UseStore, key: IDBValidKey): Promise<unknown> {
  return use('readonly', (store) => promisifyRequest(store.get(key)));
}

/** Deletes the status records numbered `statusSeqs` and every document of `taskIds`, in one transaction. */
export function deleteTasks(use: UseStore, statusSeqs: number[], taskIds: string[]): Promise<void> {
  return use('readwrite', (store) => {
    const done = promisifyRequest(store.transaction);
    for (const seq of statusSeqs) store.delete(statusKey(seq));
    for (const taskId of taskIds) {
      store.delete(journalRange(taskId));
      store.delete(snapshotKey(taskId));
      store.delete(resultKey(taskId));
    }
    return done;
  });
}

/** Closes the connection `use` holds open (after its pending transactions). */
export function closeConnection(use: UseStore): Promise<void> {
  return use('readonly', (store) => store.transaction.db.close());
}
