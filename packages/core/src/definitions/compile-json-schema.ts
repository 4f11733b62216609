import { type OutputUnit, type Schema, type SchemaDraft, Validator } from '@cfworker/json-schema';
import { DefinitionError } from '../errors.js';
import { pointerSegments, readablePath, resolvePointer } from './json-pointer.js';
import { invalidPatterns, JSON_SCHEMA_META_SCHEMA } from './json-schema-meta.js';
import { hasPatternProperties, linearSchema, originalErrors, propertyNames } from './linear-patterns.js';
import { MAX_VALUE_DEPTH, nestedDeeperThan, schemaShapeProblems } from './schema-shape.js';
import { PATTERN_ENGINE_NOT_LOADED } from './untrusted-pattern.js';
import { errorWhere, locationPrefix, type SourceLocation } from './warnings.js';

/** The outcome of validating a value against a JSON Schema. */
type JsonSchemaCheck = { ok: true } | { ok: false; errors: string[] };

/** A compiled JSON Schema: validates a value, never throws. */
export type JsonSchemaValidator = (value: unknown) => JsonSchemaCheck;

let metaValidator: Validator | undefined;

/**
 * Compiles a JSON Schema (draft 2020-12 unless `$schema` names draft-04, -07 or 2019-09) with
 * @cfworker/json-schema, which needs no `eval` and runs in browsers. Error messages name the path
 * and what was expected: `locations[0].path: expected a string, got a number (3)`.
 * Schemas and values may come from untrusted files and models, so the work is bounded: `pattern`
 * and `patternProperties` run on a linear-time engine (re2js; no look-around or back-references),
 * and a value nested deeper than {@link MAX_VALUE_DEPTH} levels fails validation without being
 * walked. Throws {@link DefinitionError} at `where` (naming `where.agent` when given) when the
 * schema itself is invalid: not an object, nested too deep, too large once YAML aliases are
 * expanded, referring to itself without descending into the value (`{"$ref": "#"}`), a keyword
 * with a wrong value, a regular expression that does not compile or needs backtracking, or a
 * `$ref` that does not resolve inside the schema. In a browser, a schema with a pattern needs the
 * pattern engine loaded first (`withPatternEngine` / `loadPatternEngine`); before that it throws a
 * {@link DefinitionError} saying so.
 */
export function compileJsonSchema(
  schema: unknown,
  where: SourceLocation & { agent?: string | undefined } = {},
): JsonSchemaValidator {
  const field = where.field ?? 'schema';
  const agent = where.agent === undefined ? '' : `agent '${where.agent}': `;
  const fail = (problems: string[]): never => {
    throw new DefinitionError(
      `${locationPrefix(where)}${agent}${field} is not a valid JSON Schema: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}.`,
      errorWhere(where),
    );
  };
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    fail([`expected an object such as { "type": "object", "properties": { ... } }, got ${describe(schema)}`]);
  }
  // Before anything recursive looks at it.
  const shape = schemaShapeProblems(schema);
  if (shape.length > 0) fail(shape);
  metaValidator ??= new Validator(JSON_SCHEMA_META_SCHEMA, '2020-12', false);
  const meta = metaValidator.validate(schema);
  if (!meta.valid) fail(formatErrors(meta.errors, JSON_SCHEMA_META_SCHEMA, schema).map((e) => `at ${e}`));
  const patterns = invalidPatterns(schema);
  if (patterns.some((problem) => problem.endsWith(PATTERN_ENGINE_NOT_LOADED)))
    throw new DefinitionError(
      `${locationPrefix(where)}${agent}${field} has a regular expression (pattern or patternProperties) that cannot be checked yet: ${PATTERN_ENGINE_NOT_LOADED}.`,
      errorWhere(where),
    );
  if (patterns.length > 0) fail(patterns);
  const refs = unresolvedRefs(schema as Schema);
  if (refs.length > 0) fail(refs);
  const draft = draftOf(schema as Schema);
  const perValue = hasPatternProperties(schema);
  const fixed = perValue ? undefined : linearSchema(schema);
  const fixedValidator = fixed && new Validator(fixed.schema, draft, false);
  return (value) => {
    if (nestedDeeperThan(value, MAX_VALUE_DEPTH))
      return { ok: false, errors: [`(root): nested more than ${MAX_VALUE_DEPTH} levels deep`] };
    const linear = fixed ?? linearSchema(schema, propertyNames(value));
    const validator = fixedValidator ?? new Validator(linear.schema, draft, false);
    const result = validator.validate(value);
    if (result.valid) return { ok: true };
    return {
      ok: false,
      errors: formatErrors(originalErrors(result.errors, linear.renamedKeys), schema, value),
    };
  };
}

function draftOf(schema: Schema): SchemaDraft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('draft-04')) return '4';
  if (declared.includes('draft-07') || declared.includes('draft-06')) return '7';
  if (declared.includes('2019-09')) return '2019-09';
  return '2020-12';
}

function unresolvedRefs(root: Schema): string[] {
  const anchors = new Set<string>();
  const refs: string[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (typeof record.$anchor === 'string') anchors.add(record.$anchor);
      if (typeof record.$ref === 'string') refs.push(record.$ref);
      for (const [key, value] of Object.entries(record)) if (key !== 'enum' && key !== 'const') walk(value);
    }
  };
  walk(root);
  const problems: string[] = [];
  for (const ref of refs) {
    if (ref === '#' || (ref.startsWith('#/') && resolvePointer(root, ref).found)) continue;
    if (ref.startsWith('#') && !ref.startsWith('#/') && anchors.has(ref.slice(1))) continue;
    problems.push(
      ref.startsWith('#')
        ? `$ref ${JSON.stringify(ref)} points to nothing in this schema`
        : `$ref ${JSON.stringify(ref)} is not local; only references inside the schema ('#/$defs/...') are supported`,
    );
  }
  return problems;
}

// Keywords whose error only says "a child failed"; the child's own error is the useful one.
const CONTAINERS = new Set([
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'unevaluatedProperties',
  'dependentSchemas',
  'propertyNames',
  'allOf',
  '$ref',
  '$recursiveRef',
  'if',
  'then',
  'else',
  'contains',
]);
// Keywords whose error stands for its branches; errors inside them are noise.
const ALTERNATIVES = new Set(['anyOf', 'oneOf', 'not']);

/** Turns @cfworker's error list into one line per real problem: `path: expected ..., got ...`. */
function formatErrors(errors: readonly OutputUnit[], schema: unknown, instance: unknown): string[] {
  const alternatives = errors.filter((e) => ALTERNATIVES.has(e.keyword)).map((e) => `${e.keywordLocation}/`);
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (CONTAINERS.has(error.keyword)) continue;
    if (alternatives.some((prefix) => error.keywordLocation.startsWith(prefix))) continue;
    if (error.keyword === 'false') continue;
    // additionalProperties is a real problem only when it is `false`; otherwise it is a container
    // whose child error says what is wrong.
    if (error.keyword === 'additionalProperties' && keywordValue(schema, error.keywordLocation) !== false)
      continue;
    const line = describeError(error, schema, instance);
    if (!seen.has(line)) {
      seen.add(line);
      lines.push(line);
    }
  }
  return lines.length > 0 ? lines : errors.map((e) => `${readablePath(e.instanceLocation)}: ${e.error}`);
}

function describeError(error: OutputUnit, schema: unknown, instance: unknown): string {
  const path = readablePath(error.instanceLocation);
  const expected = keywordValue(schema, error.keywordLocation);
  const actual = resolvePointer(instance, error.instanceLocation).value;
  const quoted = /"([^"]*)"/.exec(error.error)?.[1];
  switch (error.keyword) {
    case 'type': {
      const types = Array.isArray(expected)
        ? expected
        : [expected ?? /Expected "([^"]+)"/.exec(error.error)?.[1]];
      return `${path}: expected ${types.map((t) => withArticle(String(t))).join(' or ')}, got ${describe(actual)}`;
    }
    case 'required':
      return `${path}: missing required property ${JSON.stringify(quoted ?? '?')}`;
    case 'additionalProperties':
      return `${path}: unexpected property ${JSON.stringify(quoted ?? '?')} (the schema allows no other properties)`;
    case 'enum':
      return `${path}: expected one of ${JSON.stringify(expected)}, got ${describe(actual)}`;
    case 'const':
      return `${path}: expected exactly ${JSON.stringify(expected)}, got ${describe(actual)}`;
    case 'anyOf':
    case 'oneOf':
      return `${path}: matches ${error.keyword === 'oneOf' ? 'not exactly one' : 'none'} of the allowed shapes, got ${describe(actual)}`;
    case 'not':
      return `${path}: matches a shape the schema forbids`;
    case 'minLength':
      return `${path}: expected at least ${expected} character(s), got ${describe(actual)}`;
    case 'maxLength':
      return `${path}: expected at most ${expected} character(s), got ${String(actual).length}`;
    case 'minItems':
      return `${path}: expected at least ${expected} item(s), got ${Array.isArray(actual) ? actual.length : '?'}`;
    case 'maxItems':
      return `${path}: expected at most ${expected} item(s), got ${Array.isArray(actual) ? actual.length : '?'}`;
    case 'minimum':
      return `${path}: expected a number >= ${expected}, got ${describe(actual)}`;
    case 'maximum':
      return `${path}: expected a number <= ${expected}, got ${describe(actual)}`;
    case 'exclusiveMinimum':
      return `${path}: expected a number > ${expected}, got ${describe(actual)}`;
    case 'exclusiveMaximum':
      return `${path}: expected a number < ${expected}, got ${describe(actual)}`;
    case 'pattern':
      return `${path}: expected a string matching /${expected}/, got ${describe(actual)}`;
    case 'format':
      return `${path}: expected a valid ${expected}, got ${describe(actual)}`;
    case 'uniqueItems':
      return `${path}: expected no duplicate items`;
    default:
      return `${path}: ${error.error.replace(/\.$/, '')} (${pointerSegments(error.keywordLocation).pop() ?? error.keyword})`;
  }
}

// The schema value at an error's keywordLocation, following local `$ref`s on the way
// (cfworker reports `#/items/$ref/type` for a type inside a referenced schema).
function keywordValue(schema: unknown, location: string): unknown {
  let current: unknown = schema;
  for (const segment of pointerSegments(location)) {
    if (current === null || typeof current !== 'object') return undefined;
    const record = current as Record<string, unknown>;
    if (segment === '$ref' && typeof record.$ref === 'string' && record.$ref.startsWith('#')) {
      current = resolvePointer(schema, record.$ref).value;
      continue;
    }
    if (!Object.hasOwn(record, segment)) return undefined;
    current = record[segment];
  }
  return current;
}

function withArticle(type: string): string {
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

/** A value's JSON type plus a short preview: `a number (3)`, `an object`, `null`. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  const shown = JSON.stringify(value);
  const preview = shown.length > 40 ? `${shown.slice(0, 39)}…` : shown;
  return `${withArticle(typeof value)} (${preview})`;
}
