import { describe, expect, it } from 'vitest';
import { DefinitionError } from '../errors.js';
import { compileJsonSchema } from './compile-json-schema.js';

const report = {
  type: 'object',
  required: ['summary', 'locations'],
  additionalProperties: false,
  properties: {
    summary: { type: 'string', minLength: 1 },
    confidence: { enum: ['low', 'medium', 'high'] },
    locations: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['path'],
        properties: { path: { type: 'string' }, line: { type: 'integer', minimum: 1 } },
      },
    },
  },
};

describe('compileJsonSchema', () => {
  it('accepts a valid value', () => {
    const validate = compileJsonSchema(report);
    expect(validate({ summary: 'x', locations: [{ path: 'a.ts', line: 3 }] })).toEqual({ ok: true });
  });

  it('says where and what was expected, one line per real problem', () => {
    const validate = compileJsonSchema(report);
    const result = validate({ summary: 3, confidence: 'sure', locations: [{ line: 0 }], extra: true });
    expect(result).toEqual({
      ok: false,
      errors: [
        'summary: expected a string, got a number (3)',
        'confidence: expected one of ["low","medium","high"], got a string ("sure")',
        'locations[0]: missing required property "path"',
        'locations[0].line: expected a number >= 1, got a number (0)',
        '(root): unexpected property "extra" (the schema allows no other properties)',
      ],
    });
    expect(validate({ summary: '', locations: [] })).toEqual({
      ok: false,
      errors: [
        'summary: expected at least 1 character(s), got a string ("")',
        'locations: expected at least 1 item(s), got 0',
      ],
    });
    expect(validate('text')).toEqual({
      ok: false,
      errors: ['(root): expected an object, got a string ("text")'],
    });
  });

  it('reports anyOf as one problem, not one per branch', () => {
    const validate = compileJsonSchema({ anyOf: [{ type: 'string' }, { type: 'number' }] });
    expect(validate(true)).toEqual({
      ok: false,
      errors: ['(root): matches none of the allowed shapes, got a boolean (true)'],
    });
  });

  it('resolves local $refs', () => {
    const validate = compileJsonSchema({
      $defs: { item: { type: 'string' } },
      type: 'array',
      items: { $ref: '#/$defs/item' },
    });
    expect(validate(['a'])).toEqual({ ok: true });
    expect(validate([1])).toEqual({ ok: false, errors: ['[0]: expected a string, got a number (1)'] });
  });

  it.each([
    [[1], 'expected an object'],
    [{ type: 'strng' }, 'type'],
    [{ required: true }, 'required'],
    [{ minLength: -1 }, 'minLength'],
    [{ properties: { a: 3 } }, 'properties'],
    [{ pattern: '(' }, 'not a valid regular expression'],
    [{ $ref: '#/$defs/missing' }, 'points to nothing'],
    [{ $ref: 'https://example.com/s.json' }, 'not local'],
  ])('throws a DefinitionError for the invalid schema %j', (schema, mention) => {
    const run = () => compileJsonSchema(schema, { file: 'a.md', line: 7, field: 'outputSchema' });
    expect(run).toThrow(DefinitionError);
    expect(run).toThrow(/^a\.md:7: outputSchema is not a valid JSON Schema: /);
    expect(run).toThrow(mention);
  });
});
