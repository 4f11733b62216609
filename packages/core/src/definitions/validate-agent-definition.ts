import * as v from 'valibot';
import { DefinitionError } from '../errors.js';
import { AGENT_NAME_MAX_LENGTH, AGENT_NAME_PATTERN } from './agent-name.js';
import { compileJsonSchema } from './compile-json-schema.js';
import { isPlainObject } from './field-schemas.js';
import { HOOK_EVENTS, HOOK_TARGETS } from './hook-events.js';
import { AGENT_EFFORTS, type AgentDefinition, PERMISSION_MODES } from './types.js';
import { errorWhere, locationPrefix, type SourceLocation } from './warnings.js';

const toolNames = v.array(v.pipe(v.string(), v.trim(), v.nonEmpty()), 'a list of tool names');
const positive = (what: string) => v.pipe(v.number(what), v.integer(what), v.minValue(1, what));
const jsonSchema = v.custom<Record<string, unknown>>(isPlainObject, 'a JSON Schema object');

/** The valibot schema of an {@link AgentDefinition} (what `createRuntime({ agents })` accepts). */

const AgentDefinitionSchema = v.object({
  name: v.pipe(
    v.string('a name'),
    v.maxLength(AGENT_NAME_MAX_LENGTH, `at most ${AGENT_NAME_MAX_LENGTH} characters`),
    v.regex(AGENT_NAME_PATTERN, "lowercase letters, digits and hyphens, e.g. 'code-reviewer'"),
  ),
  description: v.pipe(
    v.string('a text'),
    v.trim(),
    v.nonEmpty('a non-empty text saying when to use the agent'),
  ),
  systemPrompt: v.string('the system prompt text'),
  tools: v.optional(toolNames),
  disallowedTools: v.optional(toolNames),
  mcpServers: v.optional(
    v.array(
      v.union([
        v.pipe(v.string(), v.trim(), v.nonEmpty()),
        v.object({ name: v.pipe(v.string(), v.trim(), v.nonEmpty()), config: v.custom(isPlainObject) }),
      ]),
      'a list of MCP server names or { name, config } entries',
    ),
  ),
  model: v.optional(v.pipe(v.string('a model alias or id'), v.trim(), v.nonEmpty('a model alias or id'))),
  maxTurns: v.optional(positive('a whole number of turns of at least 1')),
  timeoutMs: v.optional(positive('a whole number of milliseconds of at least 1')),
  tokenBudget: v.optional(positive('a whole number of tokens of at least 1')),
  inputSchema: v.optional(jsonSchema),
  outputSchema: v.optional(jsonSchema),
  forkContext: v.optional(v.boolean('true or false')),
  background: v.optional(v.boolean('true or false')),
  color: v.optional(v.string('a colour name or #rrggbb')),
  permissionMode: v.optional(v.picklist(PERMISSION_MODES, `one of ${PERMISSION_MODES.join(', ')}`)),
  skills: v.optional(v.array(v.pipe(v.string(), v.trim(), v.nonEmpty()), 'a list of skill names')),
  hooks: v.optional(
    v.record(
      v.picklist(HOOK_EVENTS, `a hook event (${HOOK_EVENTS.join(', ')})`),
      v.array(
        v.object({
          matcher: v.optional(v.string('a tool-name pattern')),
          // What each hook runs is checked where it runs (`@troupe/node`'s readHookConfig, naming file and line).
          hooks: v.array(
            v.pipe(
              v.looseObject({
                type: v.picklist(['command', 'http', 'prompt'], "'command', 'http' or 'prompt'"),
              }),
              v.check((hook) => {
                const target = (hook as Record<string, unknown>)[HOOK_TARGETS[hook.type]];
                return typeof target === 'string' && target.trim() !== '';
              }, 'a hook with its command, url or prompt'),
            ),
            'a list of { type: command, command, timeout? }',
          ),
        }),
        'a list of { matcher?, hooks }',
      ),
      'an object of hook events',
    ),
  ),
  memory: v.optional(v.picklist(['user', 'project', 'local'], "'user', 'project' or 'local'")),
  effort: v.optional(v.picklist(AGENT_EFFORTS, `one of ${AGENT_EFFORTS.join(', ')}`)),
  initialPrompt: v.optional(v.pipe(v.string('a text'), v.trim(), v.nonEmpty('a non-empty text'))),
  isolation: v.optional(v.literal('worktree', "'worktree'")),
  path: v.optional(v.string('a file path')),
  source: v.optional(
    v.picklist(['code', 'project', 'user', 'builtin'], "'code', 'project', 'user' or 'builtin'"),
  ),
  extra: v.optional(v.custom<Record<string, unknown>>(isPlainObject, 'an object')),
});

/**
 * Checks a definition given in code (or built by a parser) and returns it typed. Throws
 * {@link DefinitionError} naming the agent (and `where`), every bad field and what it expects, and
 * when `inputSchema` / `outputSchema` is not a valid JSON Schema.
 */
export function validateAgentDefinition(value: unknown, where: SourceLocation = {}): AgentDefinition {
  const result = v.safeParse(AgentDefinitionSchema, value);
  const label =
    value && typeof value === 'object' && typeof (value as { name?: unknown }).name === 'string'
      ? `agent '${(value as { name: string }).name}'`
      : 'agent definition';
  const file = where.file ?? (value as { path?: string } | null)?.path;
  if (!result.success) {
    const problems = result.issues.map((issue) => {
      const field = v.getDotPath(issue) ?? '(root)';
      if (issue.type === 'object' && issue.input === undefined)
        return { field, text: `'${field}' is required` };
      const got = issue.input === undefined ? 'nothing' : JSON.stringify(issue.input)?.slice(0, 60);
      return { field, text: `'${field}' must be ${issue.message}, got ${got}` };
    });
    const at = { ...where, file, field: problems[0]!.field };
    throw new DefinitionError(
      `${file === undefined ? '' : locationPrefix(at)}${label}: ${problems.map((p) => p.text).join('; ')}.`,
      errorWhere(at),
    );
  }
  const definition = result.output as AgentDefinition;
  for (const field of ['inputSchema', 'outputSchema'] as const) {
    if (definition[field] !== undefined)
      compileJsonSchema(definition[field], { ...where, file, field, agent: definition.name });
  }
  return value as AgentDefinition;
}
