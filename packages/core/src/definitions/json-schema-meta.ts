import type { Schema } from '@cfworker/json-schema';
import { compileUntrustedPattern } from './untrusted-pattern.js';

// A structural meta-schema: enough of JSON Schema's own meta-schema to catch the mistakes people
// make by hand (a misspelt type, `required: true`, a negative `minLength`, a non-schema where a
// schema belongs). @cfworker/json-schema does not ship the official meta-schemas, and those would
// need $dynamicRef / vocabularies; this one validates with the same engine, no eval.
// The root accepts objects and booleans (boolean schemas are valid in subschema positions;
// compileJsonSchema itself requires an object at the top), so `$ref: '#'` covers both without an
// anyOf, whose errors would be vaguer.
const schemaOrBoolean: Schema = { $ref: '#' };
const schemaMap: Schema = { type: 'object', additionalProperties: schemaOrBoolean };
const schemaList: Schema = { type: 'array', minItems: 1, items: schemaOrBoolean };
const count: Schema = { type: 'integer', minimum: 0 };
const TYPE_NAME = '^(array|boolean|integer|null|number|object|string)$';
const typeName: Schema = { type: 'string', pattern: TYPE_NAME };

/** The meta-schema every `inputSchema` / `outputSchema` must satisfy. */
export const JSON_SCHEMA_META_SCHEMA: Schema = {
  type: ['object', 'boolean'],
  properties: {
    $id: { type: 'string' },
    $schema: { type: 'string' },
    $ref: { type: 'string' },
    $anchor: { type: 'string' },
    $comment: { type: 'string' },
    $defs: schemaMap,
    definitions: schemaMap,
    // A type name, or a list of them: `pattern` only applies to strings, `items` only to arrays.
    type: { type: ['string', 'array'], pattern: TYPE_NAME, items: typeName, minItems: 1, uniqueItems: true },
    enum: { type: 'array' },
    required: { type: 'array', items: { type: 'string' }, uniqueItems: true },
    properties: schemaMap,
    patternProperties: schemaMap,
    dependentSchemas: schemaMap,
    additionalProperties: schemaOrBoolean,
    unevaluatedProperties: schemaOrBoolean,
    propertyNames: schemaOrBoolean,
    items: { anyOf: [schemaOrBoolean, { type: 'array', items: schemaOrBoolean }] },
    prefixItems: schemaList,
    additionalItems: schemaOrBoolean,
    unevaluatedItems: schemaOrBoolean,
    contains: schemaOrBoolean,
    not: schemaOrBoolean,
    if: schemaOrBoolean,
    // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword, not a thenable.
    then: schemaOrBoolean,
    else: schemaOrBoolean,
    allOf: schemaList,
    anyOf: schemaList,
    oneOf: schemaList,
    minLength: count,
    maxLength: count,
    minItems: count,
    maxItems: count,
    minProperties: count,
    maxProperties: count,
    minContains: count,
    maxContains: count,
    minimum: { type: 'number' },
    maximum: { type: 'number' },
    exclusiveMinimum: { type: ['number', 'boolean'] },
    exclusiveMaximum: { type: ['number', 'boolean'] },
    multipleOf: { type: 'number', exclusiveMinimum: 0 },
    uniqueItems: { type: 'boolean' },
    pattern: { type: 'string' },
    format: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    dependentRequired: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
  },
};

/**
 * Every `pattern` / `patternProperties` regular expression in a schema that does not compile, or
 * that the linear-time engine cannot run (see `compileUntrustedPattern`).
 */
export function invalidPatterns(schema: unknown, path = '#'): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  const problems: string[] = [];
  const record = schema as Record<string, unknown>;
  const tryPattern = (pattern: unknown, where: string) => {
    if (typeof pattern !== 'string') return;
    try {
      new RegExp(pattern, 'u');
    } catch (error) {
      problems.push(
        `${where}: ${JSON.stringify(pattern)} is not a valid regular expression (${(error as Error).message})`,
      );
      return;
    }
    const linear = compileUntrustedPattern(pattern);
    if (typeof linear === 'string') problems.push(`${where}: ${JSON.stringify(pattern)}: ${linear}`);
  };
  tryPattern(record.pattern, `${path}/pattern`);
  if (record.patternProperties && typeof record.patternProperties === 'object') {
    for (const key of Object.keys(record.patternProperties)) tryPattern(key, `${path}/patternProperties`);
  }
  for (const [key, value] of Object.entries(record)) {
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries())
        problems.push(...invalidPatterns(item, `${path}/${key}/${index}`));
    } else if (value && typeof value === 'object') problems.push(...invalidPatterns(value, `${path}/${key}`));
  }
  return problems;
}
