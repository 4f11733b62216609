import * as v from 'valibot';
import { DefinitionError } from '../errors.js';
import type { JsonSchema } from '../model/types.js';
import { CLAUDE_AGENT_FIELDS, readClaudeFields } from './claude-fields.js';
import { compileJsonSchema } from './compile-json-schema.js';
import {
  durationMs,
  flag,
  mcpServerList,
  positiveInteger,
  positiveNumber,
  schemaObject,
  text,
  toolList,
} from './field-schemas.js';
import { normaliseModel } from './model-alias.js';
import type { AgentDefinition } from './types.js';
import { type DefinitionWarning, errorWhere, locationPrefix, makeWarning, preview } from './warnings.js';

/** A definition field and the keys that set it, canonical key first (the design's field table). */
interface FieldSpec {
  field: string;
  keys: readonly string[];
}

/** Every front-matter field troupe reads, with its aliases. Timeout keys differ in unit. */
const AGENT_FIELDS: readonly FieldSpec[] = [
  { field: 'name', keys: ['name'] },
  { field: 'description', keys: ['description'] },
  { field: 'tools', keys: ['tools'] },
  { field: 'disallowedTools', keys: ['disallowedTools', 'disallowed_tools'] },
  { field: 'mcpServers', keys: ['mcpServers', 'mcp_servers'] },
  { field: 'model', keys: ['model'] },
  { field: 'maxTurns', keys: ['maxTurns', 'max_turns'] },
  { field: 'timeout', keys: ['timeout', 'timeoutMs', 'timeout_ms', 'timeoutMins', 'timeout_mins'] },
  { field: 'tokenBudget', keys: ['tokenBudget', 'token_budget'] },
  { field: 'inputSchema', keys: ['inputSchema', 'input_schema'] },
  { field: 'outputSchema', keys: ['outputSchema', 'output_schema'] },
  { field: 'forkContext', keys: ['forkContext', 'fork_context'] },
  { field: 'background', keys: ['background'] },
  { field: 'color', keys: ['color'] },
  ...CLAUDE_AGENT_FIELDS,
];

const FIELD_OF_KEY = new Map(AGENT_FIELDS.flatMap((spec) => spec.keys.map((key) => [key, spec] as const)));
// Loose spelling → canonical key, for "did you mean" hints (`max-turns` → `maxTurns`).
const LOOSE_KEY = new Map<string, string>();
for (const spec of AGENT_FIELDS) {
  for (const key of spec.keys) {
    const loose = key.toLowerCase().replace(/[_-]/g, '');
    if (!LOOSE_KEY.has(loose)) LOOSE_KEY.set(loose, key);
  }
}

/** Where the fields came from: used to name file and line in errors and warnings. */
export interface FieldSource {
  file: string | undefined;
  /** Key → 1-based line. */
  lines: ReadonlyMap<string, number>;
  /** Line to name for a missing field (the opening fence). */
  fallbackLine?: number | undefined;
}

/** The definition fields read from a front-matter (or JSON) object, before the name is settled. */
export interface ReadFields {
  /** The `name` as written, if any (checked and normalised by the caller). */
  name?: string;
  fields: Omit<AgentDefinition, 'name' | 'systemPrompt'>;
  warnings: DefinitionWarning[];
}

/**
 * Reads and validates every known field of `data` (aliases included) with valibot; unknown keys go
 * to `extra` with a warning. Throws {@link DefinitionError} naming the file, the key's line and the
 * field, and what was expected, for the first value that cannot be used.
 */
export function readAgentFields(data: Record<string, unknown>, source: FieldSource): ReadFields {
  const warnings: DefinitionWarning[] = [];
  const at = (key: string) => ({
    file: source.file,
    line: source.lines.get(key) ?? source.fallbackLine,
    field: key,
  });
  const chosen = new Map<string, string>();
  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(data)) {
    const spec = FIELD_OF_KEY.get(key);
    if (!spec) {
      extra[key] = data[key];
      const hint = LOOSE_KEY.get(key.toLowerCase().replace(/[_-]/g, ''));
      warnings.push(
        makeWarning(
          'unknown-field',
          `unknown field '${key}'${hint ? ` (did you mean '${hint}'?)` : ''}; kept in extra, not used by troupe.`,
          at(key),
        ),
      );
      continue;
    }
    const previous = chosen.get(spec.field);
    if (previous === undefined) {
      chosen.set(spec.field, key);
      continue;
    }
    const [winner, loser] =
      spec.keys.indexOf(key) < spec.keys.indexOf(previous) ? [key, previous] : [previous, key];
    chosen.set(spec.field, winner);
    warnings.push(
      makeWarning(
        'duplicate-field',
        `both '${previous}' and '${key}' are given; using '${winner}', ignoring '${loser}'.`,
        at(loser),
      ),
    );
  }

  const fail = (key: string, expected: string): never => {
    throw new DefinitionError(
      `${locationPrefix(at(key))}field '${key}' must be ${expected}; got ${preview(data[key])}.`,
      errorWhere(at(key)),
    );
  };
  const read = <TSchema extends v.GenericSchema>(field: string, schema: TSchema, expected: string) => {
    const key = chosen.get(field);
    if (key === undefined) return undefined;
    const result = v.safeParse(schema, data[key]);
    return result.success ? (result.output as v.InferOutput<TSchema>) : fail(key, expected);
  };
  const ignore = (field: string, why: string): boolean => {
    const key = chosen.get(field);
    const value = key === undefined ? undefined : data[key];
    if (key === undefined || (value !== null && value !== '')) return false;
    warnings.push(makeWarning('field-ignored', `'${key}' is empty; ${why}.`, at(key)));
    return true;
  };

  const fields: ReadFields['fields'] = { description: '' };
  const result: ReadFields = { fields, warnings };

  const nameKey = chosen.get('name');
  if (nameKey !== undefined && !ignore('name', 'using the file name')) {
    const name = read(
      'name',
      v.pipe(v.union([v.string(), v.number()]), v.transform(String), v.trim(), v.nonEmpty()),
      'a name such as code-reviewer',
    );
    if (name !== undefined) result.name = name;
  }
  const description = chosen.has('description')
    ? read(
        'description',
        v.pipe(v.union([v.string(), v.number()]), v.transform(String), text),
        'a non-empty text saying when to use this agent',
      )
    : undefined;
  if (description === undefined) {
    const where = { file: source.file, line: source.fallbackLine, field: 'description' };
    throw new DefinitionError(
      `${locationPrefix(where)}field 'description' is required: say in one or two sentences when the main agent should use this agent.`,
      errorWhere(where),
    );
  }
  fields.description = description;

  const listExpected = "a comma-separated string ('read, grep'), a list ([read, grep]) or '*'";
  if (!ignore('tools', 'the agent gets every tool')) {
    const tools = read('tools', toolList, listExpected);
    if (tools !== undefined) fields.tools = tools;
  }
  if (!ignore('disallowedTools', 'no tool is denied')) {
    const denied = read('disallowedTools', toolList, listExpected);
    if (denied !== undefined) fields.disallowedTools = denied;
  }
  if (!ignore('mcpServers', 'the agent names no MCP server')) {
    const servers = read(
      'mcpServers',
      mcpServerList,
      "MCP server names ('github, files'), a list of names and { name: { command, args } } entries, or such an object",
    );
    if (servers !== undefined) fields.mcpServers = servers;
  }
  if (!ignore('model', "using 'inherit'")) {
    const model = read('model', text, "'inherit', an alias (haiku, sonnet, opus, small, plan) or a model id");
    if (model !== undefined) {
      const normalised = normaliseModel(model);
      fields.model = normalised.model;
      if (normalised.note)
        warnings.push(makeWarning(normalised.note.kind, normalised.note.text, at(chosen.get('model')!)));
    }
  }
  const maxTurns = read('maxTurns', positiveInteger, 'a whole number of turns of at least 1, e.g. 10');
  if (maxTurns !== undefined) fields.maxTurns = maxTurns;
  const timeoutKey = chosen.get('timeout');
  if (timeoutKey !== undefined) {
    fields.timeoutMs = /min/i.test(timeoutKey)
      ? Math.round(read('timeout', positiveNumber, 'a number of minutes greater than 0, e.g. 5')! * 60_000)
      : read(
          'timeout',
          durationMs,
          "a number of milliseconds greater than 0 (e.g. 300000) or a duration such as '5m' or '90s'",
        )!;
  }
  const tokenBudget = read(
    'tokenBudget',
    positiveInteger,
    'a whole number of tokens of at least 1, e.g. 100000',
  );
  if (tokenBudget !== undefined) fields.tokenBudget = tokenBudget;
  for (const field of ['inputSchema', 'outputSchema'] as const) {
    const schema = read(
      field,
      schemaObject,
      'a JSON Schema object, e.g. { type: object, properties: { ... } }',
    );
    if (schema === undefined) continue;
    compileJsonSchema(schema, at(chosen.get(field)!));
    fields[field] = schema as JsonSchema;
  }
  const forkContext = read('forkContext', flag, 'true or false');
  if (forkContext !== undefined) fields.forkContext = forkContext;
  const background = read('background', flag, 'true or false');
  if (background !== undefined) fields.background = background;
  const colorKey = chosen.get('color');
  if (colorKey !== undefined) {
    const color = v.safeParse(text, data[colorKey]);
    if (color.success) fields.color = color.output;
    else
      warnings.push(
        makeWarning(
          'field-ignored',
          `'color' should be a name or '#rrggbb'; ignored ${preview(data[colorKey])}.`,
          at(colorKey),
        ),
      );
  }
  Object.assign(
    fields,
    readClaudeFields({ keyOf: (field) => chosen.get(field), value: (key) => data[key], at }, warnings),
  );
  if (Object.keys(extra).length > 0) fields.extra = extra;
  return result;
}
