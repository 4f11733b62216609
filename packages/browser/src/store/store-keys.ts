// How a task store lays its documents out in one IndexedDB object store. Keys are arrays, so that
// each kind of document, and each task's journal, is one contiguous key range:
//   ['meta', 'statusSeq']      the number of the next status record
//   ['status', seq]            one status record (JSON text), in the order they were appended
//   ['journal', taskId, seq]   one journal entry (JSON text)
//   ['snapshot', taskId]       the latest snapshot document (JSON text)
//   ['result', taskId]         the result document (JSON text)
// Documents are kept as JSON text, the same bytes the file store writes, so both read them with
// the same parsers and a half-written value is a parse error, never a half-valid object.

/** The object store every troupe task store uses inside its own database. */
export const OBJECT_STORE = 'documents';

/** The key of the status-record counter. */
export const STATUS_SEQ_KEY: IDBValidKey = ['meta', 'statusSeq'];

/** The key of status record `seq`. */
export const statusKey = (seq: number): IDBValidKey => ['status', seq];

/** Every status record from number `from` on (all of them by default), in order. */
export const statusRange = (from?: number): IDBKeyRange =>
  IDBKeyRange.bound(from === undefined ? ['status'] : ['status', from], ['status', []]);

/** The key of a task's journal entry `seq`. */
export const journalKey = (taskId: string, seq: number): IDBValidKey => ['journal', taskId, seq];

/** A task's journal, in order. */
export const journalRange = (taskId: string): IDBKeyRange =>
  IDBKeyRange.bound(['journal', taskId], ['journal', taskId, []]);

/** The key of a task's snapshot document. */
export const snapshotKey = (taskId: string): IDBValidKey => ['snapshot', taskId];

/** The key of a task's result document. */
export const resultKey = (taskId: string): IDBValidKey => ['result', taskId];

/** The IndexedDB database of the task store named `name`. */
export const databaseName = (name: string): string => `troupe-tasks:${name}`;
