import {
  type JournalEntry,
  SCHEMA_VERSION,
  type TaskResultDocument,
  type TaskSnapshotDocument,
  type TaskStatusRecord,
} from '@troupe/core';
import * as v from 'valibot';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

const usageSchema = v.looseObject({ input: v.number(), output: v.number(), total: v.number() });

const resultSchema = v.looseObject({
  taskId: v.string(),
  agent: v.string(),
  status: v.picklist(['completed', 'failed', 'cancelled']),
  terminateReason: v.picklist(['GOAL', 'TIMEOUT', 'MAX_TURNS', 'TOKEN_LIMIT', 'ABORTED', 'ERROR']),
  output: v.optional(v.unknown()),
  turns: count,
  toolCalls: count,
  durationMs: v.number(),
  model: v.string(),
  usage: usageSchema,
  error: v.optional(v.looseObject({ name: v.string(), code: v.string(), message: v.string() })),
});

const messageSchema = v.looseObject({
  role: v.picklist(['user', 'assistant']),
  content: v.union([v.string(), v.array(v.looseObject({ type: v.string() }))]),
});

const specSchema = v.looseObject({
  taskId: v.string(),
  agent: v.string(),
  description: v.string(),
  prompt: v.string(),
  sessionKey: v.string(),
  parentTaskId: v.optional(v.string()),
  depth: count,
  background: v.boolean(),
  announce: v.boolean(),
  model: v.string(),
  system: v.string(),
  tools: v.array(v.string()),
  limits: v.looseObject({ maxTurns: v.number(), tokenBudget: v.number(), timeoutMs: v.number() }),
  deadlineCap: v.optional(v.number()),
  messages: v.array(messageSchema),
  createdAt: v.number(),
});

const statusRecordSchema = v.pipe(
  v.looseObject({
    v: v.literal(SCHEMA_VERSION),
    taskId: v.string(),
    event: v.picklist([
      'task.queued',
      'task.started',
      'task.awaitingApproval',
      'task.resumed',
      'task.completed',
      'task.failed',
      'task.cancelled',
    ]),
    status: v.picklist(['queued', 'running', 'awaitingApproval', 'completed', 'failed', 'cancelled']),
    at: v.number(),
    spec: v.optional(specSchema),
    result: v.optional(resultSchema),
  }),
  v.check(
    (record) =>
      (!record.spec || record.spec.taskId === record.taskId) &&
      (!record.result || record.result.taskId === record.taskId),
    'spec.taskId and result.taskId must equal taskId',
  ),
);

const journalEntrySchema = v.looseObject({
  v: v.literal(SCHEMA_VERSION),
  seq: count,
  event: v.looseObject({ type: v.string(), at: v.number() }),
});

const snapshotDocumentSchema = v.pipe(
  v.looseObject({
    v: v.literal(SCHEMA_VERSION),
    taskId: v.string(),
    journalLength: count,
    savedAt: v.number(),
    snapshot: v.unknown(),
  }),
  v.check((document) => 'snapshot' in document && document.snapshot !== undefined, 'snapshot is missing'),
);

const resultDocumentSchema = v.looseObject({ v: v.literal(SCHEMA_VERSION), result: resultSchema });

/** A parsed document, or why it cannot be used. */
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

function parseWith<T>(schema: v.GenericSchema, text: string, what: string): Parsed<T> {
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
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, code: 'PERSISTENCE_CORRUPT', message: `${what} is not a JSON object` };
  }
  const version = (value as { v?: unknown }).v;
  if (typeof version !== 'number') {
    return { ok: false, code: 'PERSISTENCE_CORRUPT', message: `${what} has no schema version "v"` };
  }
  if (version !== SCHEMA_VERSION) {
    return {
      ok: false,
      code: 'PERSISTENCE_VERSION',
      message: `${what} has schema version ${version}, but this troupe reads version ${SCHEMA_VERSION}: it was written by a different troupe version; use that version to read it`,
    };
  }
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) {
    return {
      ok: false,
      code: 'PERSISTENCE_CORRUPT',
      message: `${what} is malformed (${issuesOf(parsed.issues)})`,
    };
  }
  return { ok: true, value: parsed.output as T };
}

/** Parses one line of `tasks.jsonl`. */
export const parseStatusRecord = (text: string): Parsed<TaskStatusRecord> =>
  parseWith(statusRecordSchema, text, 'The status record');

/** Parses one line of a `<taskId>.journal.jsonl`. */
export const parseJournalEntry = (text: string): Parsed<JournalEntry> =>
  parseWith(journalEntrySchema, text, 'The journal entry');

/** Parses a `<taskId>.snapshot.json`. */
export const parseSnapshotDocument = (text: string): Parsed<TaskSnapshotDocument> =>
  parseWith(snapshotDocumentSchema, text, 'The snapshot document');

/** Parses a `<taskId>.json`. */
export const parseResultDocument = (text: string): Parsed<TaskResultDocument> =>
  parseWith(resultDocumentSchema, text, 'The result document');
