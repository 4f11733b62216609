import { describe, expect, it } from 'vitest';
import { journalEntryOf, queuedRecord } from '../store/store-records.js';
import { parseStoredDocument } from './parse-documents.js';

describe('parseStoredDocument', () => {
  it('reads a document kept as JSON text or as a value, with the same checks', () => {
    const record = queuedRecord('t1');
    expect(parseStoredDocument('status', JSON.stringify(record))).toEqual({ ok: true, value: record });
    expect(parseStoredDocument('status', record)).toEqual({ ok: true, value: record });
    const entry = journalEntryOf(0);
    expect(parseStoredDocument('journal', JSON.stringify(entry))).toEqual({ ok: true, value: entry });
  });

  it('names the document in what it refuses: text that is not JSON, a value of another kind', () => {
    expect(parseStoredDocument('snapshot', '{"v":2,')).toMatchObject({
      ok: false,
      code: 'PERSISTENCE_CORRUPT',
      message: expect.stringMatching(/^The snapshot document is not valid JSON/),
    });
    expect(parseStoredDocument('result', '{', 'The result document of task t1')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^The result document of task t1 is not valid JSON/),
    });
    expect(parseStoredDocument('journal', queuedRecord('t1'))).toMatchObject({ ok: false });
  });
});
