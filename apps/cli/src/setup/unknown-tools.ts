import { readFile } from 'node:fs/promises';
import { type AgentDefinition, createToolRegistry, TASK_TOOL_NAMES, type Tool } from '@troupe/core';

/** An agent file that lists tools troupe does not have: they are left out of the agent's tools. */
export interface UnknownToolsFinding {
  message: string;
  file?: string;
  line?: number;
}

/** Names troupe resolves elsewhere: the task tools (given to nesting agents) and MCP tools. */
function providedElsewhere(name: string): boolean {
  const lower = name.toLowerCase();
  return (TASK_TOOL_NAMES as readonly string[]).includes(lower) || lower.startsWith('mcp__');
}

/** The 1-based line of the `tools` field in an agent file (Markdown front matter or JSON). */
async function toolsLine(file: string): Promise<number | undefined> {
  try {
    const lines = (await readFile(file, 'utf8')).split('\n');
    const index = lines.findIndex((line) => /^\s*["']?tools["']?\s*:/.test(line));
    return index >= 0 ? index + 1 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every agent (from a file) whose `tools` names tools that match none of `tools`, one finding per
 * agent naming the file, the line of its `tools` field and the tools left out (`WebFetch`,
 * `WebSearch`, ...). Built-in agents are not checked.
 */
export async function unknownToolFindings(
  agents: readonly AgentDefinition[],
  tools: readonly Tool[],
): Promise<UnknownToolsFinding[]> {
  const findings: UnknownToolsFinding[] = [];
  const available = tools.map((tool) => tool.name).join(', ');
  for (const agent of agents) {
    if (agent.source === 'builtin' || !agent.tools?.length) continue;
    const unknown = createToolRegistry(tools, { allow: agent.tools }).unmatched.filter(
      (name) => !providedElsewhere(name),
    );
    if (unknown.length === 0) continue;
    const line = agent.path ? await toolsLine(agent.path) : undefined;
    const where = agent.path ? `${agent.path}${line ? `:${line}` : ''}: ` : '';
    const listed = unknown.join(', ');
    findings.push({
      message: `${where}agent "${agent.name}" lists ${unknown.length === 1 ? `tool ${listed}, which troupe does not have; it is` : `tools ${listed}, which troupe does not have; they are`} left out (troupe has ${available}).`,
      ...(agent.path ? { file: agent.path } : {}),
      ...(line ? { line } : {}),
    });
  }
  return findings;
}
