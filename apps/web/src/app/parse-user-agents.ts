import { type AgentDefinition, parseAgentFile, withPatternEngine } from '@troupe/core';

/**
 * Parses the user's agent files (name → Markdown), skipping any that no longer parse and telling
 * `onProblem` which and why. Loaded on demand: the YAML parser is not part of the page's start, and
 * the pattern engine loads only for a file whose schemas have a `pattern`.
 */
export async function parseUserAgents(
  files: Map<string, string>,
  onProblem: (text: string) => void,
): Promise<AgentDefinition[]> {
  const definitions: AgentDefinition[] = [];
  for (const [name, text] of files) {
    try {
      const { definition } = await withPatternEngine(() => parseAgentFile(text, { path: `${name}.md` }));
      definitions.push({ ...definition, source: 'user' });
    } catch (error) {
      onProblem(`Your agent "${name}" is not loaded: ${(error as Error).message}`);
    }
  }
  return definitions;
}
