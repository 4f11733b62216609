import { type ParseAgentOptions, type ParsedAgent, parseAgentFile } from './parse-agent-file.js';
import { parseAgentJson } from './parse-agent-json.js';

/**
 * Parses an agent file of either format: `.json` paths (or, without a path, text starting with
 * `{`) as JSON, everything else as Markdown with front matter. Throws what those parsers throw.
 */
export function parseAgentSource(text: string, options: ParseAgentOptions = {}): ParsedAgent {
  const isJson = options.path !== undefined ? /\.json$/i.test(options.path) : /^\uFEFF?\s*\{/.test(text);
  return isJson ? parseAgentJson(text, options) : parseAgentFile(text, options);
}
