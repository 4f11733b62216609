import * as v from 'valibot';

// valibot schemas for each front-matter field's accepted shapes. Each pairs with an `expected`
// sentence used in the error when a value fits none of them.

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?)$/i;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

function durationToMs(text: string): number {
  const match = DURATION.exec(text)!;
  const unit = match[2]!.toLowerCase();
  const key =
    unit === 'ms' ? 'ms' : unit.startsWith('mi') || unit === 'm' ? 'm' : unit.startsWith('h') ? 'h' : 's';
  return Math.round(Number(match[1]) * UNIT_MS[key]!);
}

/** A whole number ≥ 1, written as a number or as digits in a string. */
export const positiveInteger = v.union([
  v.pipe(v.number(), v.integer(), v.minValue(1)),
  v.pipe(v.string(), v.trim(), v.regex(/^\d+$/), v.transform(Number), v.minValue(1)),
]);

/** A number > 0, written as a number or as a decimal in a string. */
export const positiveNumber = v.union([
  v.pipe(v.number(), v.finite(), v.gtValue(0)),
  v.pipe(v.string(), v.trim(), v.regex(/^\d+(?:\.\d+)?$/), v.transform(Number), v.gtValue(0)),
]);

/** Milliseconds: a positive number, or a duration string such as `90s`, `5m`, `1h`. */
export const durationMs = v.union([
  v.pipe(positiveNumber, v.transform(Math.round), v.minValue(1)),
  v.pipe(v.string(), v.trim(), v.regex(DURATION), v.transform(durationToMs), v.minValue(1)),
]);

/** `true` / `false`, also as the strings `true`, `false`, `yes`, `no`. */
export const flag = v.union([
  v.boolean(),
  v.pipe(
    v.string(),
    v.trim(),
    v.toLowerCase(),
    v.picklist(['true', 'false', 'yes', 'no']),
    v.transform((text) => text === 'true' || text === 'yes'),
  ),
]);

/** Splits `Read, Grep, Bash(git diff:*)` on commas outside parentheses. */
function splitToolList(text: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth++;
    if (char === ')') depth = Math.max(0, depth - 1);
    if (char === ',' && depth === 0) {
      names.push(current);
      current = '';
    } else current += char;
  }
  names.push(current);
  return names.map((name) => name.trim()).filter((name) => name !== '');
}

/** A tool list: `*`, a comma-separated string, or a YAML / JSON list of names. */
export const toolList = v.union([
  v.pipe(v.string(), v.transform(splitToolList)),
  v.pipe(
    v.array(v.pipe(v.union([v.string(), v.number()]), v.transform(String), v.trim(), v.nonEmpty())),
    v.transform((names) => [...names]),
  ),
]);

/** A non-empty string (trimmed). */
export const text = v.pipe(v.string(), v.trim(), v.nonEmpty());

/** True for a non-null, non-array object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A JSON Schema object (arrays rejected). A string holding JSON is parsed first. */
export const schemaObject = v.union([
  v.custom<Record<string, unknown>>(isPlainObject),
  v.pipe(v.string(), v.parseJson(), v.custom<Record<string, unknown>>(isPlainObject)),
]);

const serverName = v.pipe(v.union([v.string(), v.number()]), v.transform(String), v.trim(), v.nonEmpty());
const serverConfig = v.custom<Record<string, unknown>>(isPlainObject);
const inlineServers = v.pipe(
  v.record(v.pipe(v.string(), v.trim(), v.nonEmpty()), serverConfig),
  v.transform((entries) => Object.entries(entries).map(([name, config]) => ({ name, config }))),
);

/**
 * MCP servers: a comma-separated string of names, a list whose items are names or `{ name: config }`
 * objects, or one `{ name: config }` object (the shape of `.mcp.json`'s `mcpServers`).
 */
export const mcpServerList = v.union([
  v.pipe(v.string(), v.transform(splitToolList)),
  v.pipe(
    v.array(
      v.union([
        v.pipe(
          serverName,
          v.transform((name) => [name]),
        ),
        inlineServers,
      ]),
    ),
    v.transform((items) => items.flat()),
  ),
  inlineServers,
]);
