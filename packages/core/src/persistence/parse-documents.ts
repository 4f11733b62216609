import * as v from 'valibot';
import { exceedsDocumentBounds, exceedsDocumentSize } from './document-bounds.js';
import {
  journalEntrySchema,
  resultDocumentSchema,
  snapshotDocumentSchema,
  statusRecordSchema,
  summaryRowSchema,
} from './document-schemas.js';
import { currentEventName } from './journal-events.js';
import { factsOf, type TaskFacts } from './task-facts.js';
import {
  type JournalEntry,
  SCHEMA_VERSION,
  type TaskResult,
  type TaskResultDocument,
  type TaskSnapshotDocument,
  type TaskStatus,
  type TaskStatusRecord,
  type TaskSummary,
} from './types.js';

/** The schema versions this troupe reads. Documents of version 1 are upgraded as they are read. */
export const READABLE_SCHEMA_VERSIONS: readonly number[] = Object.freeze([1, SCHEMA_VERSION]);

/**
 * A parsed document, or why it cannot be used. Every parser here refuses a document nested more
 * than `MAX_DOCUMENT_DEPTH` levels or larger than `MAX_DOCUMENT_CHARS` (`PERSISTENCE_CORRUPT`).
 */
export type Parsed<T> =
  | { ok: true; value: T }
  | { ok: false; code: 'PERSISTENCE_CORRUPT' | 'PERSISTENCE_VERSION'; message: string };

function issuesOf(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => {
      const path = v.getDotPath(issue);
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

function parseWith<T>(
  schema: v.GenericSchema,
  value: unknown,
  what: string,
  upgrade: (value: Record<string, unknown>, version: number) => Record<string, unknown> = (same) => same,
): Parsed<T> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, code: 'PERSISTENCE_CORRUPT', message: `${what} is not a JSON object` };
  }
  const version = (value as { v?: unknown }).v;
  if (typeof version !== 'number') {
    return { ok: false, code: 'PERSISTENCE_CORRUPT', message: `${what} has no schema version "v"` };
  }
  if (!READABLE_SCHEMA_VERSIONS.includes(version)) {
    return {
      ok: false,
      code: 'PERSISTENCE_VERSION',
      message: `${what} has schema version ${version}, but this troupe reads versions ${READABLE_SCHEMA_VERSIONS.join(' and ')}: it was written by a newer troupe; use that version to read it`,
    };
  }
  // Before anything reads it further: a hostile record nested 100,000 deep must not overflow the
  // stack of a reader that recurses (a replay's comparison, a clone).
  const outOfBounds = exceedsDocumentBounds(value);
  if (outOfBounds)
    return { ok: false, code: 'PERSISTENCE_CORRUPT', message: `${what} cannot be read: ${outOfBounds}` };
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) {
    return {
      ok: false,
      code: 'PERSISTENCE_CORRUPT',
      message: `${what} is malformed (${issuesOf(parsed.issues)})`,
    };
  }
  const output = parsed.output as Record<string, unknown>;
  const current = version === SCHEMA_VERSION ? output : { ...upgrade(output, version), v: SCHEMA_VERSION };
  return { ok: true, value: current as T };
}

/**
 * Parses JSON text with `parse`, for stores that keep documents as text. Invalid JSON, or text
 * past `MAX_DOCUMENT_CHARS`, is a `PERSISTENCE_CORRUPT` result naming `what`.
 */
export function parseJsonDocument<T>(
  text: string,
  parse: (value: unknown) => Parsed<T>,
  what: string,
): Parsed<T> {
  const tooLarge = exceedsDocumentSize(text.length);
  if (tooLarge)
    return { ok: false, code: 'PERSISTENCE_CORRUPT', message: `${what} cannot be read: ${tooLarge}` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      code: 'PERSISTENCE_CORRUPT',
      message: `${what} is not valid JSON (${(error as Error).message})`,
    };
  }
  return parse(value);
}

/** Checks one status record (a line of the status log), upgrading an older version. */
export const parseStatusRecord = (value: unknown): Parsed<TaskStatusRecord> =>
  parseWith(statusRecordSchema, value, 'The status record');

/**
 * Checks a task's summary as an index keeps it — `{ v, taskId, status, updatedAt, facts, result? }`,
 * `facts` holding only the spec's `TASK_FACT_KEYS` — as {@link parseStatusRecord} checks the
 * record that holds the whole spec, and makes it a `TaskSummary`: a page is read without the
 * specs' prompts, system prompts and conversations.
 */
export function parseTaskSummary(value: unknown): Parsed<TaskSummary> {
  const parsed = parseWith<SummaryRow>(summaryRowSchema, value, 'The task summary');
  if (!parsed.ok) return parsed;
  const { facts, status, updatedAt, result } = parsed.value;
  const summary: TaskSummary = { ...factsOf(facts), status, updatedAt };
  if (result) summary.result = result;
  return { ok: true, value: summary };
}

interface SummaryRow {
  facts: TaskFacts;
  status: TaskStatus;
  updatedAt: number;
  result?: TaskResult;
}

/** Checks one journal entry, upgrading an older version (version 1 event names become `noun.verb`). */
export const parseJournalEntry = (value: unknown): Parsed<JournalEntry> =>
  parseWith(journalEntrySchema, value, 'The journal entry', (entry) => {
    const event = entry.event as { type: string };
    return { ...entry, event: { ...event, type: currentEventName(event.type) } };
  });

/** Checks a task's snapshot document, upgrading an older version. */
export const parseSnapshotDocument = (value: unknown): Parsed<TaskSnapshotDocument> =>
  parseWith(snapshotDocumentSchema, value, 'The snapshot document');

/** Checks a task's result document, upgrading an older version. */
export const parseResultDocument = (value: unknown): Parsed<TaskResultDocument> =>
  parseWith(resultDocumentSchema, value, 'The result document');

/** The documents a store keeps, by kind: what {@link parseStoredDocument} reads. */
export interface StoredDocuments {
  status: TaskStatusRecord;
  journal: JournalEntry;
  snapshot: TaskSnapshotDocument;
  result: TaskResultDocument;
}

type Reader<T> = { parse: (value: unknown) => Parsed<T>; what: string };

const READERS: { [K in keyof StoredDocuments]: Reader<StoredDocuments[K]> } = {
  status: { parse: parseStatusRecord, what: 'The status record' },
  journal: { parse: parseJournalEntry, what: 'The journal entry' },
  snapshot: { parse: parseSnapshotDocument, what: 'The snapshot document' },
  result: { parse: parseResultDocument, what: 'The result document' },
};

/**
 * Reads a stored document of `kind` as a store keeps it: JSON text (a file's line, an IndexedDB
 * value) is parsed first (see `parseJsonDocument`); any other value (a JSON column, a value kept
 * as an object) is checked as it is. Either way it is checked, and upgraded, by the kind's parser.
 * `what` names the document in the message of text that is not JSON (default: "The status
 * record", "The journal entry", "The snapshot document", "The result document").
 */
export function parseStoredDocument<K extends keyof StoredDocuments>(
  kind: K,
  stored: unknown,
  what: string = READERS[kind].what,
): Parsed<StoredDocuments[K]> {
  const { parse } = READERS[kind];
  return typeof stored === 'string' ? parseJsonDocument(stored, parse, what) : parse(stored);
}
