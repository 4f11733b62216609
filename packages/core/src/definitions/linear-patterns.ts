import { encodePointer, format, type OutputUnit, type Schema } from '@cfworker/json-schema';
import { compileUntrustedPattern } from './untrusted-pattern.js';

// @cfworker/json-schema runs `pattern` and `patternProperties` with `new RegExp`, a backtracking
// engine. It has no hook for another engine, so the schema it sees is rewritten: each `pattern`
// becomes a `format` check backed by re2js (linear time), and each `patternProperties` key, for one
// validation, a plain list of the value's keys that re2js matched. Errors are mapped back.
const FORMAT_PREFIX = 'troupe-linear-pattern:';
const SKIPPED = new Set(['enum', 'const', 'default', 'examples']);
// Keywords whose value maps names to schemas (a property may be called `enum`).
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** A schema rewritten for @cfworker, plus what is needed to map its errors back. */
export interface LinearSchema {
  schema: Schema;
  /** Encoded rewritten `patternProperties` keys → encoded original keys. */
  renamedKeys: Map<string, string>;
}

/** Whether the schema has `patternProperties` (whose rewrite depends on the value validated). */
export function hasPatternProperties(schema: unknown): boolean {
  let found = false;
  rewrite(schema, (node) => {
    if (node.patternProperties && typeof node.patternProperties === 'object') found = true;
  });
  return found;
}

/**
 * Rewrites `schema` so that @cfworker/json-schema runs no regular expression of the schema on
 * untrusted text. `keys` (every property name in the value to validate) is needed when the schema
 * has `patternProperties`. Patterns must have been checked with `compileUntrustedPattern`.
 */
export function linearSchema(schema: unknown, keys: ReadonlySet<string> = new Set()): LinearSchema {
  const renamedKeys = new Map<string, string>();
  const rewritten = rewrite(schema, (node) => {
    if (typeof node.pattern === 'string') {
      const name = registerFormat(node.pattern);
      delete node.pattern;
      node.allOf = [...(Array.isArray(node.allOf) ? node.allOf : []), { format: name }];
    }
    const properties = node.patternProperties;
    if (properties && typeof properties === 'object' && !Array.isArray(properties)) {
      const renamed: Record<string, unknown> = {};
      for (const [pattern, subschema] of Object.entries(properties)) {
        const key = literalKeys(pattern, keys, renamedKeys.size);
        renamedKeys.set(encodePointer(key), encodePointer(pattern));
        renamed[key] = subschema;
      }
      node.patternProperties = renamed;
    }
  });
  return { schema: rewritten as Schema, renamedKeys };
}

/** Every property name in a value (walked without recursion). */
export function propertyNames(value: unknown): Set<string> {
  const names = new Set<string>();
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) stack.push(...node);
    else
      for (const [key, child] of Object.entries(node)) {
        names.add(key);
        stack.push(child);
      }
  }
  return names;
}

/** Maps the errors of a rewritten schema back to the keywords and locations of the original. */
export function originalErrors(
  errors: readonly OutputUnit[],
  renamedKeys: Map<string, string>,
): OutputUnit[] {
  return errors.map((error) => {
    let keywordLocation = error.keywordLocation;
    for (const [renamed, original] of renamedKeys)
      keywordLocation = keywordLocation
        .split(`/patternProperties/${renamed}`)
        .join(`/patternProperties/${original}`);
    if (error.keyword === 'format' && error.error.includes(`"${FORMAT_PREFIX}`))
      return {
        ...error,
        keyword: 'pattern',
        keywordLocation: keywordLocation.replace(/\/allOf\/\d+\/format$/, '/pattern'),
        error: 'String does not match pattern.',
      };
    return keywordLocation === error.keywordLocation ? error : { ...error, keywordLocation };
  });
}

/** A deep copy of the schema positions of `schema` (data in enum/const/... is shared), with `edit` applied to each object. */
function rewrite(schema: unknown, edit: (node: Record<string, unknown>) => void, isMap = false): unknown {
  if (schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map((item) => rewrite(item, edit));
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (isMap) copy[key] = rewrite(value, edit);
    else copy[key] = SKIPPED.has(key) ? value : rewrite(value, edit, SCHEMA_MAPS.has(key));
  }
  if (!isMap) edit(copy);
  return copy;
}

function registerFormat(pattern: string): string {
  const name = FORMAT_PREFIX + pattern;
  if (!Object.hasOwn(format, name)) {
    const compiled = compileUntrustedPattern(pattern);
    format[name] = typeof compiled === 'string' ? () => false : (text) => compiled.test(text);
  }
  return name;
}

/** A regular expression matching exactly the `keys` that `pattern` matches, unique per `index`. */
function literalKeys(pattern: string, keys: ReadonlySet<string>, index: number): string {
  const compiled = compileUntrustedPattern(pattern);
  const matched = typeof compiled === 'string' ? [] : [...keys].filter((key) => compiled.test(key));
  const alternatives = matched.map((key) => [...key].map(escapeCodePoint).join(''));
  return `(?<troupe${index}>)^(?:${alternatives.length > 0 ? alternatives.join('|') : '[^\\s\\S]'})$`;
}

function escapeCodePoint(char: string): string {
  return /^[A-Za-z0-9_]$/.test(char) ? char : `\\u{${char.codePointAt(0)!.toString(16)}}`;
}
