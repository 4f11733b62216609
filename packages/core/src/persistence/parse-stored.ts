import {
  type Parsed,
  parseJournalEntry,
  parseJsonDocument,
  parseResultDocument,
  parseSnapshotDocument,
  parseStatusRecord,
} from './parse-documents.js';
import type { JournalEntry, TaskResultDocument, TaskSnapshotDocument, TaskStatusRecord } from './types.js';

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
