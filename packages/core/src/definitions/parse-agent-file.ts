import { parseAgentJson } from './parse-agent-json.js';
import { parseAgentMarkdown } from './parse-agent-markdown.js';
import type { ParseAgentOptions, ParsedAgent } from './parsed-agent.js';

export type { ParseAgentOptions, ParsedAgent };

/**
 * Parses an agent file of either format the README documents: a `.json` path (or, for any other
 * path but `.md`, text that starts with `{`) as a JSON agent (`{ name, description, tools, prompt }`
 * plus any front-matter field), everything else as Markdown with YAML front matter (Claude Code's
 * format; the body is the system prompt). Lenient with real-world files, reporting each repair as
 * a warning. Throws {@link DefinitionError} naming the file, line and field, and what was expected,
 * when the file cannot be used (no front matter, invalid JSON, no description, a bad value).
 */
export function parseAgentFile(text: string, options: ParseAgentOptions = {}): ParsedAgent {
  return isJsonAgent(text, options.path) ? parseAgentJson(text, options) : parseAgentMarkdown(text, options);
}

function isJsonAgent(text: string, path: string | undefined): boolean {
  if (path !== undefined && /\.json$/i.test(path)) return true;
  if (path !== undefined && /\.(md|markdown)$/i.test(path)) return false;
  return typeof text === 'string' && /^\uFEFF?\s*\{/.test(text);
}
