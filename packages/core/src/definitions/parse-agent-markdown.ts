import { DefinitionError } from '../errors.js';
import { readAgentFields } from './agent-fields.js';
import { settleAgentName } from './agent-name.js';
import { splitFrontMatter } from './front-matter.js';
import { parseFrontMatterYaml } from './front-matter-yaml.js';
import type { ParseAgentOptions, ParsedAgent } from './parsed-agent.js';
import type { AgentDefinition } from './types.js';
import { validateAgentDefinition } from './validate-agent-definition.js';
import { makeWarning } from './warnings.js';

/**
 * Parses a Markdown agent file (Claude Code format): YAML front matter with the fields of the
 * README's table, and the body as the system prompt. Lenient with real-world files (BOM, CRLF,
 * indented or long-dash fences, YAML that only a human would accept), reporting each repair as a
 * warning. Throws {@link DefinitionError} naming the file, line and field, and what was expected,
 * when the file cannot be used (no front matter, no description, a bad value).
 */
export function parseAgentMarkdown(text: string, options: ParseAgentOptions = {}): ParsedAgent {
  const file = options.path;
  if (typeof text !== 'string') {
    throw new DefinitionError(
      `${file ?? 'agent file'}: expected the file's text as a string, got ${typeof text}.`,
      {
        ...(file === undefined ? {} : { file }),
      },
    );
  }
  const split = splitFrontMatter(text, file);
  const frontMatter = parseFrontMatterYaml(split.yaml, { file, firstLine: split.yamlFirstLine });
  const read = readAgentFields(frontMatter.data, {
    file,
    lines: frontMatter.lines,
    fallbackLine: split.openLine,
  });
  const warnings = [...split.warnings, ...frontMatter.warnings, ...read.warnings];
  const name = settleAgentName(
    read.name,
    { file, line: frontMatter.lines.get('name') ?? split.openLine },
    warnings,
  );
  const systemPrompt = split.body.trim();
  if (systemPrompt === '') {
    warnings.push(
      makeWarning('empty-prompt', 'the body (the system prompt) is empty; the agent gets no instructions.', {
        file,
        line: split.openLine,
      }),
    );
  }
  const definition: AgentDefinition = { name, ...read.fields, systemPrompt };
  if (file !== undefined) definition.path = file;
  return { definition: validateAgentDefinition(definition, { file }), warnings };
}
