import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentDefinition, mcpServerOf, type Runtime, type ToolSource } from '@troupe/core';
import type { IgnoredMcpServer, McpHub, McpServerEntry } from '@troupe/mcp';
import type { ProjectTrust } from './project-trust.js';

/**
 * The MCP side of a CLI run: the hub (close it at the end), the tool source to give the runtime
 * (servers start when a task that can use them starts) and what to tell the user.
 */
export interface McpSetup {
  hub: McpHub | undefined;
  /** `createRuntime({ toolSources })`: empty when MCP is not configured. */
  toolSources: ToolSource[];
  notices: string[];
  /** The project's servers left out because the folder is not trusted. */
  ignored: IgnoredMcpServer[];
  close(): Promise<void>;
}

interface Places {
  cwd: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** What the CLI tells the user about a `${VAR}` it refused in a project's MCP configuration. */
export const HOW_TO_ALLOW_VARIABLE =
  'To allow it, add "{name}" to "mcpVariables" in ~/.troupe/settings.json.';

/** The configured MCP servers, and those of an untrusted project that were left out. */
export interface McpServers {
  servers: McpServerEntry[];
  warnings: string[];
  ignored: IgnoredMcpServer[];
}

/**
 * The configured MCP servers: the project's `.mcp.json`, the user's `~/.troupe/mcp.json`, then
 * inline definitions in agent files' `mcpServers` (a configured server of the same name wins).
 * The project's (`.mcp.json`, project agents' inline servers) only when `trust` says the user
 * trusts the folder; otherwise they are in `ignored`.
 */
export async function mcpServers(
  places: Places,
  agents: readonly AgentDefinition[],
  trust: Pick<ProjectTrust, 'trusted' | 'projectVariables'>,
): Promise<McpServers> {
  const { loadMcpConfig } = await import('@troupe/mcp/node');
  const { agentMcpServers } = await import('@troupe/mcp');
  const options = {
    trustProject: trust.trusted,
    projectVariables: trust.projectVariables,
    howToAllow: HOW_TO_ALLOW_VARIABLE,
  };
  const loaded = loadMcpConfig({ cwd: places.cwd, home: places.home, environment: places.env, ...options });
  const inline = agentMcpServers(agents, places.env, {
    ...options,
    taken: loaded.servers.map((server) => server.name),
  });
  return {
    servers: [...loaded.servers, ...inline.servers],
    warnings: [...loaded.warnings, ...inline.warnings],
    ignored: [...loaded.ignored, ...inline.ignored],
  };
}

/** The MCP servers an agent refers to: its `mcpServers` and the servers in its tool patterns. */
export function serversNamedBy(agent: AgentDefinition): string[] {
  const names = new Set<string>();
  for (const server of agent.mcpServers ?? []) names.add(typeof server === 'string' ? server : server.name);
  for (const pattern of [...(agent.tools ?? [])]) {
    const server = mcpServerOf(pattern);
    if (server) names.add(server);
  }
  return [...names];
}

/** True when MCP is configured at all: a config file, or an agent naming servers or MCP tools. */
export function usesMcp(places: Places, agents: readonly AgentDefinition[]): boolean {
  if (existsSync(join(places.cwd, '.mcp.json')) || existsSync(join(places.home, '.troupe', 'mcp.json')))
    return true;
  return agents.some((agent) => serversNamedBy(agent).length > 0);
}

/**
 * The configured MCP servers as a hub, started by nobody yet: a server starts when a task whose
 * agent can use one of its tools starts (the hub's tool source), or here for `listAll` (`troupe
 * mcp list`), which starts every server and lists its tools. A server that fails is a notice (for
 * `listAll`) or a `TOOL_SOURCE_FAILED` runtime warning (see {@link showMcpWarnings}), never an
 * error: tools that agent files name exactly still exist and retry it on use.
 */
export async function openMcp(
  places: Places,
  agents: readonly AgentDefinition[],
  options: { listAll?: boolean; trust: Pick<ProjectTrust, 'trusted' | 'projectVariables'> },
): Promise<McpSetup> {
  const none = (notices: string[], ignored: IgnoredMcpServer[] = []): McpSetup => ({
    hub: undefined,
    toolSources: [],
    notices,
    ignored,
    close: async () => {},
  });
  // The MCP SDK is loaded only when MCP is in use: CLI start-up stays fast without it.
  if (!usesMcp(places, agents)) return none([]);
  const { servers, warnings, ignored } = await mcpServers(places, agents, options.trust);
  if (servers.length === 0) return none(warnings, ignored);
  const { createNodeMcpHub } = await import('@troupe/mcp/node');
  const hub = createNodeMcpHub({ servers });
  const notices = [...warnings];
  if (options.listAll) {
    await hub.tools();
    notices.push(
      ...hub.problems(),
      ...hub
        .status()
        .filter((server) => server.error)
        .map((server) => `MCP server "${server.name}" is unavailable: ${server.error}`),
    );
  } else notices.push(...hub.problems());
  return { hub, toolSources: [hub.toolSource()], notices, ignored, close: () => hub.close() };
}

/** Shows the runtime's MCP warnings (a server that could not start for a task) through `log`. */
export function showMcpWarnings(runtime: Runtime, log: (text: string) => void): () => void {
  return runtime.on('runtime.warning', (warning) => {
    if (warning.code === 'TOOL_SOURCE_FAILED') log(warning.message);
  });
}
