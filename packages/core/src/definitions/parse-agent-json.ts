import { DefinitionError } from '../errors.js';
import { readAgentFields } from './agent-fields.js';
import { settleAgentName } from './agent-name.js';
import { normaliseText } from './front-matter.js';
import type { ParseAgentOptions, ParsedAgent } from './parsed-agent.js';
import type { AgentDefinition } from './types.js';
import { validateAgentDefinition } from './validate-agent-definition.js';
import { type DefinitionWarning, errorWhere, locationPrefix, makeWarning, preview } from './warnings.js';

const PROMPT_KEYS = ['prompt', 'systemPrompt', 'system_prompt'] as const;

/**
 * Parses a JSON agent file: `{ "name", "description", "tools", "prompt" }` plus any field of the
 * Markdown format (same names and aliases; `systemPrompt` / `system_prompt` also name the
 * prompt). Throws {@link DefinitionError} with the line of a JSON syntax error, or of the bad
 * field, and what was expected.
 */
export function parseAgentJson(text: string, options: ParseAgentOptions = {}): ParsedAgent {
  const file = options.path;
  const source = normaliseText(text);
  let data: unknown;
  try {
    data = JSON.parse(source);
  } catch (error) {
    const line = lineOfJsonError(source, (error as Error).message);
    throw new DefinitionError(
      `${locationPrefix({ file, line })}not valid JSON (${(error as Error).message}). Expected an object like ` +
        `{ "name": "code-reviewer", "description": "...", "tools": ["read"], "prompt": "..." }.`,
      errorWhere({ file, line }),
      { cause: error },
    );
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new DefinitionError(
      `${locationPrefix({ file, line: 1 })}expected a JSON object with name, description and prompt; got ${Array.isArray(data) ? 'an array' : preview(data)}.`,
      errorWhere({ file, line: 1 }),
    );
  }
  const lines = keyLines(source);
  const fields = { ...(data as Record<string, unknown>) };
  const warnings: DefinitionWarning[] = [];
  const promptKeys = PROMPT_KEYS.filter((key) => Object.hasOwn(fields, key));
  const promptKey = promptKeys[0];
  const prompt = promptKey === undefined ? undefined : fields[promptKey];
  for (const key of promptKeys) delete fields[key];
  if (promptKeys.length > 1) {
    warnings.push(
      makeWarning(
        'duplicate-field',
        `both ${promptKeys.map((k) => `'${k}'`).join(' and ')} are given; using '${promptKey}'.`,
        {
          file,
          line: lines.get(promptKeys[1]!),
          field: promptKeys[1]!,
        },
      ),
    );
  }
  if (prompt !== undefined && typeof prompt !== 'string') {
    const where = { file, line: lines.get(promptKey!), field: promptKey! };
    throw new DefinitionError(
      `${locationPrefix(where)}field '${promptKey}' must be the system prompt as a string; got ${preview(prompt)}.`,
      errorWhere(where),
    );
  }
  const read = readAgentFields(fields, { file, lines, fallbackLine: 1 });
  warnings.push(...read.warnings);
  const name = settleAgentName(read.name, { file, line: lines.get('name') ?? 1 }, warnings);
  const systemPrompt = (prompt ?? '').trim();
  if (systemPrompt === '') {
    warnings.push(
      makeWarning('empty-prompt', "no 'prompt'; the agent gets no instructions.", {
        file,
        line: 1,
        field: 'prompt',
      }),
    );
  }
  const definition: AgentDefinition = { name, ...read.fields, systemPrompt };
  if (file !== undefined) definition.path = file;
  return { definition: validateAgentDefinition(definition, { file }), warnings };
}

/** Line of each top-level-looking `"key":` (first occurrence). */
function keyLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(/"((?:[^"\\]|\\.)*)"\s*:/g)) {
      if (!lines.has(match[1]!)) lines.set(match[1]!, index + 1);
    }
  });
  return lines;
}

function lineOfJsonError(text: string, message: string): number | undefined {
  const lineMatch = /line (\d+)/.exec(message);
  if (lineMatch) return Number(lineMatch[1]);
  const position = /position (\d+)/.exec(message);
  if (!position) return undefined;
  return text.slice(0, Number(position[1])).split('\n').length;
}
