import {
  type JournalEntry,
  PersistenceError,
  type StoredTask,
  type StoreWarning,
  type TaskResult,
  type TaskSnapshotDocument,
} from '@troupe/core';
import {
  applyStatusRecord,
  type Parsed,
  parseJournalEntry,
  parseJsonDocument,
  parseResultDocument,
  parseSnapshotDocument,
  parseStatusRecord,
} from '@troupe/core/store';
import type { UseStore } from 'idb-keyval';
import { readJournal, readValue } from './idb-documents.js';
import { resultKey, snapshotKey } from './store-keys.js';

// Reading the stored documents back with core's parsers (which upgrade version-1 documents). A bad
// document is a warning (status log, journal) or a PersistenceError naming the task and document
// (snapshot, result); either way the other tasks still load.

/** Parses a stored value: JSON text as the store writes it, or anything else as found. */
function parseStored<T>(value: unknown, parse: (value: unknown) => Parsed<T>, what: string): Parsed<T> {
  return typeof value === 'string' ? parseJsonDocument(value, parse, what) : parse(value);
}

/**
 * Folds the status log into one task each (core's `applyStatusRecord`), with a warning for each
 * record that cannot be read, and the numbers of each task's records (for prune).
 */
export function foldStatusLog(
  log: { seq: number; value: unknown }[],
  database: string,
): { tasks: Map<string, StoredTask>; warnings: StoreWarning[]; recordsOf: Map<string, number[]> } {
  const tasks = new Map<string, StoredTask>();
  const warnings: StoreWarning[] = [];
  const recordsOf = new Map<string, number[]>();
  for (const { seq, value } of log) {
    const parsed = parseStored(value, parseStatusRecord, 'The status record');
    const path = `indexeddb:${database}/status/${seq}`;
    if (!parsed.ok) {
      warnings.push({
        code: parsed.code,
        message: `${path}: ${parsed.message}; the record was skipped.`,
        path,
      });
      continue;
    }
    const taskId = parsed.value.taskId;
    recordsOf.set(taskId, [...(recordsOf.get(taskId) ?? []), seq]);
    applyStatusRecord(tasks, parsed.value);
  }
  return { tasks, warnings, recordsOf };
}

/**
 * A task's journal up to the first entry that cannot be read or is out of sequence (a torn or lost
 * write), with a warning naming the task and the entry.
 */
export async function loadJournalEntries(
  use: UseStore,
  taskId: string,
  path: string,
): Promise<{ entries: JournalEntry[]; warnings: StoreWarning[] }> {
  const entries: JournalEntry[] = [];
  const warnings: StoreWarning[] = [];
  for (const [index, stored] of (await readJournal(use, taskId)).entries()) {
    const line = index + 1;
    const parsed = parseStored(stored.value, parseJournalEntry, 'The journal entry');
    let problem: string | undefined;
    if (!parsed.ok) problem = `${parsed.message}; this entry and the rest of the journal were skipped.`;
    else if (parsed.value.seq !== entries.length || stored.seq !== entries.length) {
      problem = `entry ${stored.seq} has seq ${parsed.value.seq} where ${entries.length} was expected: entries are missing, so this entry and the rest of the journal were skipped.`;
    }
    if (problem) {
      const code = parsed.ok ? 'PERSISTENCE_CORRUPT' : parsed.code;
      warnings.push({ code, message: `${path} (task ${taskId}), entry ${line}: ${problem}`, path, line });
      break;
    }
    if (parsed.ok) entries.push(parsed.value);
  }
  return { entries, warnings };
}

async function loadDocument<T>(
  use: UseStore,
  key: IDBValidKey,
  parse: (value: unknown) => Parsed<T>,
  what: string,
  path: string,
): Promise<T | undefined> {
  let value: unknown;
  try {
    value = await readValue(use, key);
  } catch (error) {
    throw new PersistenceError('PERSISTENCE_FAILED', `Could not read ${path}: ${(error as Error).message}`, {
      path,
      cause: error,
    });
  }
  if (value === undefined) return undefined;
  const parsed = parseStored(value, parse, what);
  if (!parsed.ok) throw new PersistenceError(parsed.code, `${path}: ${parsed.message}.`, { path });
  return parsed.value;
}

/** A task's snapshot document; undefined when absent; a PersistenceError naming the task when bad. */
export async function loadSnapshotDocument(
  use: UseStore,
  taskId: string,
  path: string,
): Promise<TaskSnapshotDocument | undefined> {
  const what = `The snapshot document of task ${taskId}`;
  const document = await loadDocument(use, snapshotKey(taskId), parseSnapshotDocument, what, path);
  if (document && document.taskId !== taskId) {
    throw new PersistenceError(
      'PERSISTENCE_CORRUPT',
      `${path}: the snapshot belongs to task ${document.taskId}, not ${taskId}.`,
      { path },
    );
  }
  return document;
}

/** A task's result; undefined when absent; a PersistenceError naming the task when bad. */
export async function loadResultDocument(
  use: UseStore,
  taskId: string,
  path: string,
): Promise<TaskResult | undefined> {
  const what = `The result document of task ${taskId}`;
  const document = await loadDocument(use, resultKey(taskId), parseResultDocument, what, path);
  if (document && document.result.taskId !== taskId) {
    throw new PersistenceError(
      'PERSISTENCE_CORRUPT',
      `${path}: the result belongs to task ${document.result.taskId}, not ${taskId}.`,
      { path },
    );
  }
  return document?.result;
}
