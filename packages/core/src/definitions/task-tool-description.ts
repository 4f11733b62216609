import type { AgentDefinition } from './types.js';

/** Default cap on one agent's description in the `task` tool's text, in characters. */
const TASK_DESCRIPTION_MAX_LENGTH = 300;

/** The agent part of the `task` tool: the listing for its description, and the names for its enum. */
interface TaskToolAgents {
  /** One line per agent: `- name: when to use it (Tools: ...)`, under a short header. */
  text: string;
  /** The registered names, sorted: restrict `subagent_type` to these (`enum`). */
  names: string[];
}

/**
 * Builds the agent listing of the `task` tool from a registry (or any `list()`): each agent's
 * description made compact with {@link compactDescription}, and its tools.
 */
export function taskToolDescription(
  registry: { list(): readonly AgentDefinition[] },
  options: { maxDescriptionLength?: number } = {},
): TaskToolAgents {
  const max = options.maxDescriptionLength ?? TASK_DESCRIPTION_MAX_LENGTH;
  const agents = [...registry.list()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const lines = agents.map(
    (agent) =>
      `- ${agent.name}: ${compactDescription(agent.description, max)} (Tools: ${describeTools(agent)})`,
  );
  const text =
    agents.length === 0
      ? 'No agent types are available.'
      : `Available agent types and the tools they have access to (pass the name as subagent_type):\n${lines.join('\n')}`;
  return { text, names: agents.map((agent) => agent.name) };
}

/** `all tools`, `all tools except write, edit`, or the listed names minus the denied ones. */
export function describeTools(agent: Pick<AgentDefinition, 'tools' | 'disallowedTools'>): string {
  const denied = agent.disallowedTools ?? [];
  const deniedLower = new Set(denied.map((name) => name.toLowerCase()));
  if (agent.tools === undefined || agent.tools.includes('*')) {
    return denied.length === 0 ? 'all tools' : `all tools except ${denied.join(', ')}`;
  }
  const kept = agent.tools.filter((name) => !deniedLower.has(name.toLowerCase()));
  return kept.length === 0 ? 'none' : kept.join(', ');
}

/**
 * Makes a description fit one list entry: drops `<example>` blocks (closed or not), turns literal
 * `\n` escapes and line breaks into spaces, removes a dangling `Examples:` left behind, collapses
 * whitespace, and caps the length at `max` characters (at a sentence or word end, with `…`).
 */
export function compactDescription(description: string, max = TASK_DESCRIPTION_MAX_LENGTH): string {
  let text = description
    .replace(/<example>[\s\S]*?<\/example>/gi, ' ')
    .replace(/<example>[\s\S]*$/i, ' ')
    .replace(/\\[nrt]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  for (;;) {
    const shorter = text
      .replace(/(?:[-–—,;:]\s*)?\b(?:examples?|for example|e\.g\.|such as)\s*[:.]?\s*$/i, '')
      .trim();
    if (shorter === text) break;
    text = shorter;
  }
  if (text.length <= max) return text;
  const slice = text.slice(0, max - 1);
  const sentence = Math.max(slice.lastIndexOf('. '), slice.lastIndexOf('! '), slice.lastIndexOf('? '));
  if (sentence >= max / 2) return slice.slice(0, sentence + 1);
  const space = slice.lastIndexOf(' ');
  return `${(space >= max / 2 ? slice.slice(0, space) : slice).replace(/[\s,;:.-]+$/, '')}…`;
}
