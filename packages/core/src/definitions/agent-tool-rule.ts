/** `Agent`, `Agent(explore, plan)`, and the older `Task(...)` (a bare `Task` is troupe's `task` tool). */
const AGENT_TOOL = /^(?:agent(?:\s*\(([^)]*)\))?|task\s*\(([^)]*)\))$/i;

/** The task tool an `Agent` entry grants (Claude Code's Agent tool is troupe's `task`). */
const STARTING_TOOLS = ['task'];

/** An agent's tool patterns with its `Agent(...)` entries read. */
export interface AgentToolRule {
  /** The patterns, each `Agent(...)` / `Task(...)` replaced by the task tools it grants. */
  tools: string[];
  /**
   * The agent names it may start, when every `Agent` entry names them; undefined when any entry
   * is a bare `Agent` / `Task` (any agent) or none is given.
   */
  allowedAgents?: string[];
}

/**
 * Reads Claude Code's `Agent(type, …)` (formerly `Task(type, …)`) entries of a `tools` list: they
 * grant troupe's `task` tool and, with names, restrict which agents the task tools may start. A bare `Agent` allows any agent. Names are kept as written (lowercased).
 */
export function readAgentToolRule(tools: readonly string[]): AgentToolRule {
  const out: string[] = [];
  const names = new Set<string>();
  let restricted = false;
  let unrestricted = false;
  for (const pattern of tools) {
    const match = AGENT_TOOL.exec(pattern.trim());
    if (!match) {
      out.push(pattern);
      continue;
    }
    for (const tool of STARTING_TOOLS) if (!out.includes(tool)) out.push(tool);
    const listed = match[1] ?? match[2];
    if (listed === undefined) {
      unrestricted = true;
      continue;
    }
    restricted = true;
    for (const name of listed.split(',')) {
      const trimmed = name.trim().toLowerCase();
      if (trimmed !== '') names.add(trimmed);
    }
  }
  const rule: AgentToolRule = { tools: out };
  if (restricted && !unrestricted) rule.allowedAgents = [...names];
  return rule;
}
