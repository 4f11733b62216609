import { describe, expect, it } from 'vitest';
import { exceedsDocumentSize, MAX_DOCUMENT_CHARS, MAX_DOCUMENT_DEPTH } from './document-bounds.js';
import { parseJournalEntry, parseJsonDocument, parseSnapshotDocument } from './parse-documents.js';
import { SCHEMA_VERSION } from './types.js';

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
