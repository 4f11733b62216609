import { type AgentDefinition, parseAgentFile } from '@troupe/core';

/**
 * Parses the user's agent files (name → Markdown), skipping any that no longer parse and telling
 * `onProblem` which and why. Loaded on demand: the YAML parser is not part of the page's start.
 */
export function parseUserAgents(
  files: Map<string, string>,
  onProblem: (text: string) => void,
): AgentDefinition[] {
  const definitions: AgentDefinition[] = [];
  for (const [name, text] of files) {
    try {
      definitions.push({ ...parseAgentFile(text, { path: `${name}.md` }).definition, source: 'user' });
    } catch (error) {
      onProblem(`Your agent "${name}" is not loaded: ${(error as Error).message}`);
    }
  }
  return definitions;
}
