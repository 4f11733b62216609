import type {
  JournalEntry,
  StoredTask,
  TaskResultDocument,
  TaskSnapshotDocument,
  TaskStatusRecord,
} from '@troupe/core';
import {
  applyStatusRecord,
  isFinalStatus,
  type Parsed,
  parseJournalEntry,
  parseJsonDocument,
  parseResultDocument,
  parseSnapshotDocument,
  parseStatusRecord,
} from '@troupe/core/store';
import type { JsonLine } from './read-json-lines.js';
import { taskIdProblem } from './task-file-names.js';
import { ownerOf, type StoreRunner, type TaskOwner } from './task-owner.js';

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

/**
 * Folds the status log into one task each, in first-seen order (see core's `applyStatusRecord`).
 * Exact duplicate lines, written twice around a concurrent `prune`, are applied once.
 */
export function foldStatusLines(lines: readonly JsonLine<TaskStatusRecord>[]): Map<string, StoredTask> {
  const tasks = new Map<string, StoredTask>();
  const seen = new Set<string>();
  for (const { value, text } of lines) {
    if (seen.has(text)) continue;
    seen.add(text);
    applyStatusRecord(tasks, value);
  }
  return tasks;
}

/**
 * The unfinished tasks whose last status record was written by another process that is still
 * running (see `StoreRunner.runsElsewhere`), with it: a restore here must leave them to it.
 */
export function unfinishedTasksRunElsewhere(
  lines: readonly JsonLine<TaskStatusRecord>[],
  runner: StoreRunner,
): Map<string, TaskOwner> {
  const owners = new Map<string, TaskOwner | undefined>();
  const ended = new Set<string>();
  for (const { value } of lines) {
    if (isFinalStatus(value.status)) ended.add(value.taskId);
    else owners.set(value.taskId, ownerOf(value));
  }
  const elsewhere = new Map<string, TaskOwner>();
  for (const [taskId, owner] of owners)
    if (owner && !ended.has(taskId) && runner.runsElsewhere(owner)) elsewhere.set(taskId, owner);
  return elsewhere;
}
