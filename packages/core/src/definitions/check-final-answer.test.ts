import { describe, expect, it } from 'vitest';
import { checkFinalAnswer } from './check-final-answer.js';

const schema = {
  type: 'object',
  required: ['summary'],
  properties: { summary: { type: 'string' }, count: { type: 'integer' } },
};

describe('checkFinalAnswer', () => {
  it('accepts raw JSON', () => {
    expect(checkFinalAnswer('  {"summary": "ok", "count": 2}\n', schema)).toEqual({
      ok: true,
      value: { summary: 'ok', count: 2 },
    });
  });

  it('accepts a ```json block inside prose', () => {
    const text = 'Here is the report:\n\n```json\n{ "summary": "found it" }\n```\nDone.';
    expect(checkFinalAnswer(text, schema)).toEqual({ ok: true, value: { summary: 'found it' } });
  });

  it('prefers the json-labelled fence over other fences', () => {
    const text = '```ts\nconst x = { a: 1 };\n```\n```json\n{"summary":"s"}\n```';
    expect(checkFinalAnswer(text, schema)).toEqual({ ok: true, value: { summary: 's' } });
  });

  it('finds the first {...} object in prose, skipping braces that are not JSON', () => {
    const text = 'The function {foo} returns. Result: {"summary": "has } brace", "count": 1} — end.';
    expect(checkFinalAnswer(text, schema)).toEqual({ ok: true, value: { summary: 'has } brace', count: 1 } });
  });

  it('tells the model exactly what is wrong with the JSON', () => {
    const result = checkFinalAnswer('{"count": "two"}', schema);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toContain('does not match the required output schema');
    expect(result.message).toContain('- (root): missing required property "summary"');
    expect(result.message).toContain('- count: expected an integer, got a string ("two")');
    expect(result.message).toContain('reply with the corrected JSON only');
    expect(result.message).toContain('"required":["summary"]');
  });

  it('says when there is no JSON, or the fenced JSON is broken', () => {
    const none = checkFinalAnswer('I looked everywhere and found nothing.', schema);
    expect(none).toMatchObject({ ok: false });
    expect(!none.ok && none.message).toContain('the final answer contains no JSON');
    const broken = checkFinalAnswer('```json\n{"summary": "x",}\n```', schema);
    expect(!broken.ok && broken.message).toContain('the ```json block is not valid JSON');
    const empty = checkFinalAnswer('   ', schema);
    expect(!empty.ok && empty.message).toContain('the final answer is empty');
  });
});
