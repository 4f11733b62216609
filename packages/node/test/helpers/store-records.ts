import type {
  JournalEntry,
  TaskResult,
  TaskSnapshotDocument,
  TaskSpec,
  TaskStatusRecord,
  TaskStore,
} from '@troupe/core';
import { finalRecord, queuedRecord, storeRecords } from '@troupe/core/store';

// The file store's tests use core's store records (`storeRecords`), with a prompt of their own
// (padded to make long lines) and a test model.

/** What the file store's tests change in core's spec: the prompt (and its message) and the model. */
function specFields(prompt: string): Partial<TaskSpec> {
  return {
    description: 'Find auth',
    prompt,
    model: 'claude-test',
    system: 'You explore code.',
    messages: [{ role: 'user', content: prompt }],
  };
}

/**
 * A complete task spec for tests; `prompt` can be padded to make long lines. It has no `graceMs`,
 * as the specs of the version-1 store fixtures (written before it existed).
 */
export function specOf(taskId: string, prompt = 'Find the auth code', createdAt = 1_000): TaskSpec {
  const { graceMs: _, ...spec } = storeRecords.specOf(taskId, createdAt, specFields(prompt));
  return spec;
}

/** A result of `status`, answering where the auth code lives. */
export function resultOf(taskId: string, status: TaskResult['status'] = 'completed'): TaskResult {
  return {
    ...storeRecords.resultOf(taskId, status),
    output: 'auth lives in src/auth.ts',
    durationMs: 1_234,
    model: 'claude-test',
  };
}

export const queued = (taskId: string, at = 1_000, prompt?: string): TaskStatusRecord =>
  queuedRecord(specOf(taskId, prompt, at));

export const started = (taskId: string, at = 1_100): TaskStatusRecord =>
  storeRecords.startedRecord(taskId, at);

export const finished = (
  taskId: string,
  at = 2_000,
  status: TaskResult['status'] = 'completed',
): TaskStatusRecord => finalRecord(resultOf(taskId, status), at);

export const journalEntry = (seq: number, at = 1_100 + seq): JournalEntry =>
  storeRecords.journalEntryOf(seq, at);

export const snapshotOf = (taskId: string, journalLength: number, marker = 'turn'): TaskSnapshotDocument =>
  storeRecords.snapshotDocumentOf(taskId, journalLength, marker);

/**
 * Writes a task with every kind of file (status records, a journal entry, a snapshot); `end`
 * finishes it at that time, with its result.
 */
export function writeTaskFiles(
  store: Pick<TaskStore, 'appendStatus' | 'appendJournal' | 'saveSnapshot' | 'saveResult'>,
  taskId: string,
  end?: number,
): void {
  store.appendStatus(queued(taskId, 1_000));
  store.appendStatus(started(taskId, 1_100));
  store.appendJournal(taskId, journalEntry(0));
  store.saveSnapshot(taskId, () => snapshotOf(taskId, 1));
  if (end !== undefined) {
    store.saveResult({ v: 2, result: resultOf(taskId) });
    store.appendStatus(finished(taskId, end));
  }
}
