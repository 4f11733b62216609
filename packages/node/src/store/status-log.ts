import type { JournalEntry, TaskResultDocument, TaskSnapshotDocument, TaskStatusRecord } from '@troupe/core';
import {
  type Parsed,
  parseJournalEntry,
  parseJsonDocument,
  parseResultDocument,
  parseSnapshotDocument,
  parseStatusRecord,
} from '@troupe/core/store';
import { taskIdProblem } from './task-file-names.js';

// The file store keeps documents as JSON text: these parse that text with core's document
// schemas (which also upgrade version-1 documents).

/**
 * Parses one line of `tasks.jsonl`. A record whose task id cannot name a file in the store (a path
 * such as `../../escaped`) is refused as corrupt, so that no reader uses it as a path.
 */
export function parseStatusLine(text: string): Parsed<TaskStatusRecord> {
  const parsed = parseJsonDocument(text, parseStatusRecord, 'The status record');
  if (!parsed.ok) return parsed;
  const problem = taskIdProblem(parsed.value.taskId);
  return problem === undefined
    ? parsed
    : { ok: false, code: 'PERSISTENCE_CORRUPT', message: `The status record's ${problem}` };
}

/** Parses one line of a `<taskId>.journal.jsonl`. */
export const parseJournalLine = (text: string): Parsed<JournalEntry> =>
  parseJsonDocument(text, parseJournalEntry, 'The journal entry');

/** Parses a `<taskId>.snapshot.json`. */
export const parseSnapshotText = (text: string): Parsed<TaskSnapshotDocument> =>
  parseJsonDocument(text, parseSnapshotDocument, 'The snapshot document');

/** Parses a `<taskId>.json`. */
export const parseResultText = (text: string): Parsed<TaskResultDocument> =>
  parseJsonDocument(text, parseResultDocument, 'The result document');
