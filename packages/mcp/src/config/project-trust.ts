import type { AgentDefinition } from '@troupe/core';
import { McpConfigError } from './mcp-config-error.js';
import { parseServerConfig } from './parse-mcp-config.js';
import type { McpServerEntry } from './server-config.js';
import type { VariablePolicy } from './variable-policy.js';

/**
 * An MCP server a project brings that was not loaded because the user does not trust the
 * project's folder: what it would have run, as written (no `${VAR}` expanded, no `env` value).
 */
export interface IgnoredMcpServer {
  name: string;
  /** The file, or `agent <name> (<path>)` for an inline definition in a project agent file. */
  source: string;
  /** `command arg1 arg2` for a stdio server, the URL for an HTTP one, as written. */
  runs: string;
}

/** How a host treats what a project (a folder the user may have just cloned) brings. */
export interface ProjectTrustOptions {
  /**
   * True when the user trusts the project's folder: only then are its servers (`.mcp.json`,
   * project agent files' inline `mcpServers`) loaded. Default false: they are listed in
   * `ignored` instead, and nothing of theirs runs.
   */
  trustProject?: boolean;
  /**
   * The variables the user allows a project's configuration to expand with `${VAR}` (from the
   * user's own settings), besides `HARMLESS_VARIABLES`. Default none.
   */
  projectVariables?: readonly string[];
  /** Appended to a refused variable's warning: how to allow it (`{name}` is replaced). */
  howToAllow?: string;
}

/** The variable policy of a project's configuration under `options`. */
export function projectVariablePolicy(options: ProjectTrustOptions): VariablePolicy {
  return {
    allow: options.projectVariables ?? [],
    ...(options.howToAllow ? { howToAllow: options.howToAllow } : {}),
  };
}

/** What a raw server entry would run, as written: `command args…` or the URL. */
export function describeServerCommand(raw: unknown): string {
  if (raw === null || typeof raw !== 'object') return '(not an object)';
  const entry = raw as { command?: unknown; args?: unknown; url?: unknown };
  if (typeof entry.url === 'string') return entry.url;
  const args = Array.isArray(entry.args) ? entry.args.map((arg) => quoteWord(String(arg))) : [];
  return [typeof entry.command === 'string' ? quoteWord(entry.command) : '(no command)', ...args].join(' ');
}

function quoteWord(word: string): string {
  return /^[\w@%+=:,./${}-]+$/.test(word) ? word : JSON.stringify(word);
}

/** What {@link agentMcpServers} found. */
export interface AgentMcpServers {
  servers: McpServerEntry[];
  warnings: string[];
  ignored: IgnoredMcpServer[];
}

/**
 * The inline MCP servers of agent definitions (`mcpServers: [{ name: { command … } }]`), for
 * servers not already configured (`taken`). A project agent's (`source: 'project'`) are loaded
 * only when `trustProject` is set, and expand only the variables the user allowed; a user's,
 * built-in or code agent's are the host's own. An unusable entry is a warning, never an error.
 */
export function agentMcpServers(
  agents: readonly AgentDefinition[],
  environment: Readonly<Record<string, string | undefined>>,
  options: ProjectTrustOptions & { taken?: readonly string[] } = {},
): AgentMcpServers {
  const found: AgentMcpServers = { servers: [], warnings: [], ignored: [] };
  const taken = new Set(options.taken ?? []);
  for (const agent of agents) {
    const fromProject = agent.source === 'project';
    for (const server of agent.mcpServers ?? []) {
      if (typeof server === 'string' || taken.has(server.name)) continue;
      const source = `agent ${agent.name}${agent.path ? ` (${agent.path})` : ''}`;
      if (fromProject && !options.trustProject) {
        found.ignored.push({ name: server.name, source, runs: describeServerCommand(server.config) });
        continue;
      }
      try {
        const config = parseServerConfig(server.name, server.config, source, environment, {
          variables: fromProject ? projectVariablePolicy(options) : { allow: 'all' },
        });
        found.servers.push({ name: server.name, source, config });
        taken.add(server.name);
      } catch (error) {
        if (!(error instanceof McpConfigError)) throw error;
        found.warnings.push(error.message);
      }
    }
  }
  return found;
}
