import { describe, expect, it } from 'vitest';
import { resultOf, specOf } from '../store/store-records.js';
import { exceedsDocumentSize, MAX_DOCUMENT_CHARS, MAX_DOCUMENT_DEPTH } from './document-bounds.js';
import {
  parseJournalEntry,
  parseJsonDocument,
  parseSnapshotDocument,
  parseTaskSummary,
} from './parse-documents.js';
import { summaryOf } from './task-documents.js';
import { TASK_FACT_KEYS } from './task-facts.js';
import { SCHEMA_VERSION, type TaskSpec } from './types.js';

/** An array nested `depth` levels deep, built without recursion. */
function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

const snapshot = (content: unknown) => ({
  v: SCHEMA_VERSION,
  taskId: 't1',
  journalLength: 1,
  savedAt: 1,
  snapshot: { status: 'active', value: {}, context: { messages: [{ role: 'user', content }] } },
});

const journalEntry = (input: unknown) => ({
  v: SCHEMA_VERSION,
  seq: 0,
  event: { type: 'task.steered', at: 1, text: 'x', input },
});

describe('documents read from a store are bounded', () => {
  it('a snapshot nested 100,000 deep is corrupt, naming where, without overflowing the stack', () => {
    const parsed = parseSnapshotDocument(snapshot(nested(100_000)));
    expect(parsed).toEqual({
      ok: false,
      code: 'PERSISTENCE_CORRUPT',
      message: expect.stringMatching(
        /^The snapshot document cannot be read: it is nested more than 512 levels deep \(at snapshot\.context\.messages\[0\]\.content\[0\]\[0\]/,
      ),
    });
  });

  it('a journal entry nested 100,000 deep is corrupt too, and so is its JSON text', () => {
    expect(parseJournalEntry(journalEntry(nested(100_000)))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^The journal entry cannot be read: it is nested more than 512 levels/),
    });
    const text = `{"v":${SCHEMA_VERSION},"seq":0,"event":{"type":"task.steered","at":1,"text":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
    expect(parseJsonDocument(text, parseJournalEntry, 'The journal entry')).toMatchObject({
      ok: false,
      code: 'PERSISTENCE_CORRUPT',
      message: expect.stringMatching(/nested more than 512 levels deep \(at event\.text\[0\]/),
    });
  });

  it('a sparse array of 4,294,967,295 items (a store that clones, not parses) is refused at once', () => {
    expect(parseSnapshotDocument(snapshot(new Array(2 ** 32 - 1)))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/cannot be read: it is larger than 268,435,456 characters/),
    });
  });

  it('a document within the bounds still parses (the limit is far above what troupe writes)', () => {
    const within = parseSnapshotDocument(snapshot(nested(MAX_DOCUMENT_DEPTH - 8)));
    expect(within.ok).toBe(true);
  });

  it('a document past MAX_DOCUMENT_CHARS is refused before it is parsed', () => {
    expect(exceedsDocumentSize(MAX_DOCUMENT_CHARS)).toBeUndefined();
    expect(exceedsDocumentSize(MAX_DOCUMENT_CHARS + 1)).toBe('it is larger than 268,435,456 characters');
    expect(exceedsDocumentSize(11, 10)).toBe('it is larger than 10 characters');
  });
});

describe("a task's summary read from an index (its spec's facts only)", () => {
  /** The summary row of a task whose whole spec is `spec`, as an index keeps it. */
  const rowOf = (spec: TaskSpec, extra: Record<string, unknown> = {}) => ({
    v: SCHEMA_VERSION,
    taskId: spec.taskId,
    status: 'completed',
    updatedAt: 2_000,
    facts: Object.fromEntries(TASK_FACT_KEYS.filter((key) => key in spec).map((key) => [key, spec[key]])),
    result: resultOf(spec.taskId),
    ...extra,
  });

  it('is the summary the whole spec gives, parent and result included, for both readable versions', () => {
    const spec = specOf('t2', 1_500, { parentTaskId: 't1', sessionKey: 's9' });
    const whole = summaryOf({ spec, status: 'completed', updatedAt: 2_000, result: resultOf('t2') });
    expect(parseTaskSummary(rowOf(spec))).toEqual({ ok: true, value: whole });
    expect(parseTaskSummary({ ...rowOf(spec), v: 1 })).toEqual({ ok: true, value: whole });
    const { result: _none, ...queued } = rowOf(specOf('t3'), { status: 'queued' });
    expect(parseTaskSummary(queued)).toMatchObject({ ok: true, value: { taskId: 't3', status: 'queued' } });
  });

  it('refuses what the status record holding the whole spec refuses, naming the field', () => {
    const spec = specOf('t1');
    const refused = (row: unknown) => {
      const parsed = parseTaskSummary(row);
      return parsed.ok ? 'accepted' : `${parsed.code}: ${parsed.message}`;
    };
    expect(refused(rowOf(spec, { v: 99 }))).toMatch(/^PERSISTENCE_VERSION: .*version 99/);
    expect(refused(rowOf(spec, { status: 'sideways' }))).toMatch(/^PERSISTENCE_CORRUPT: .*status/);
    expect(refused(rowOf(spec, { facts: { ...rowOf(spec).facts, depth: 'x' } }))).toMatch(/facts\.depth/);
    expect(refused(rowOf(spec, { taskId: 't9' }))).toMatch(/facts\.taskId and result\.taskId must equal/);
    expect(refused(rowOf(spec, { result: resultOf('t9') }))).toMatch(/must equal taskId/);
    expect(refused(rowOf(spec, { result: { ...resultOf('t1'), turns: -1 } }))).toMatch(/result\.turns/);
    expect(refused(rowOf(spec, { facts: null }))).toMatch(/^PERSISTENCE_CORRUPT: .*facts/);
    expect(refused(rowOf(spec, { result: { ...resultOf('t1'), output: nested(100_000) } }))).toMatch(
      /nested more than/,
    );
  });
});
