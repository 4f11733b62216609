// Issue #14, item 4: model-controlled text must not block the event loop (no deadline could fire).
// Each case here took from 10 s to forever before the fix; each must now end in well under a second
// of work, so the bound asserted (2 s) leaves room for a loaded machine.
import { checkFinalAnswer, compileJsonSchema } from '@troupe/core/internal';
import { describe, expect, it } from 'vitest';

function timed<T>(work: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = work();
  return { value, ms: performance.now() - start };
}

const anyObject = { type: 'object' };

describe('JSON extraction from a final answer is linear', () => {
  it('60,000 nested braces (each scanned to its match before) are answered at once', () => {
    const { value, ms } = timed(() =>
      checkFinalAnswer(`Here: ${'{'.repeat(30_000)}${'}'.repeat(30_000)}`, anyObject),
    );
    expect(value.ok).toBe(false);
    expect(ms).toBeLessThan(2_000);
  });

  it('20,000 nested objects that fail to parse at the very end are not each parsed again', () => {
    const text = `${'{"a":'.repeat(20_000)}1 x${'}'.repeat(20_000)}`;
    const { value, ms } = timed(() => checkFinalAnswer(text, anyObject));
    expect(value.ok).toBe(false);
    expect(ms).toBeLessThan(2_000);
  });

  it('still finds a valid object nested in an invalid one', () => {
    expect(checkFinalAnswer('Result {see {"ok": true}}', anyObject)).toEqual({
      ok: true,
      value: { ok: true },
    });
  });
});

describe('an answer nested 200,000 levels deep', () => {
  it('is refused with a message for the model, not a stack overflow', () => {
    const schema = { type: 'array', items: { $ref: '#' } };
    const answer = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const check = checkFinalAnswer(answer, schema);
    expect(check.ok).toBe(false);
    expect(check.ok ? '' : check.message).toMatch(/nested more than \d+ levels/);
  });
});

describe('output schema patterns run on a linear-time engine', () => {
  it("'^(a+)+$' against 40 a's and a '!' answers at once (catastrophic backtracking in a backtracking engine)", () => {
    const schema = { type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' } } };
    const { value, ms } = timed(() =>
      checkFinalAnswer(JSON.stringify({ name: `${'a'.repeat(40)}!` }), schema),
    );
    expect(value.ok).toBe(false);
    expect(value.ok ? '' : value.message).toContain('expected a string matching /^(a+)+$/');
    expect(ms).toBeLessThan(2_000);
    expect(checkFinalAnswer(JSON.stringify({ name: 'a'.repeat(40) }), schema).ok).toBe(true);
  });

  it('a patternProperties key pattern with catastrophic backtracking answers at once', () => {
    const schema = {
      type: 'object',
      patternProperties: { '^(a|aa)+$': { type: 'number' } },
      additionalProperties: false,
    };
    const validate = compileJsonSchema(schema);
    const { value, ms } = timed(() => validate({ [`${'a'.repeat(60)}!`]: 1 }));
    expect(value).toMatchObject({ ok: false });
    expect(ms).toBeLessThan(2_000);
    expect(validate({ aaaa: 1 })).toEqual({ ok: true });
    expect(validate({ aaaa: 'x' })).toMatchObject({
      ok: false,
      errors: ['aaaa: expected a number, got a string ("x")'],
    });
  });

  it('a pattern that needs a backtracking engine (look-around, back-reference) is refused when the schema is compiled', () => {
    expect(() =>
      compileJsonSchema({ type: 'string', pattern: '^(?=a)(a+)+$' }, { field: 'outputSchema' }),
    ).toThrow(/outputSchema.*#\/pattern.*look-around or back-references/);
  });

  it('ECMAScript escapes (\\u00e9, \\u{1F600}) still work', () => {
    const validate = compileJsonSchema({ type: 'string', pattern: '^caf\\u00e9 \\u{1F600}$' });
    expect(validate('café 😀')).toEqual({ ok: true });
    expect(validate('cafe')).toMatchObject({ ok: false });
  });
});
