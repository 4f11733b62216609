import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentDefinition, mcpServerOf, type Runtime, type ToolSource } from '@troupe/core';
import type { McpHub, McpServerEntry } from '@troupe/mcp';

/**
 * The MCP side of a CLI run: the hub (close it at the end), the tool source to give the runtime
 * (servers start when a task that can use them starts) and what to tell the user.
 */
export interface McpSetup {
  hub: McpHub | undefined;
  /** `createRuntime({ toolSources })`: empty when MCP is not configured. */
  toolSources: ToolSource[];
  notices: string[];
  close(): Promise<void>;
}

interface Places {
  cwd: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * The configured MCP servers: the project's `.mcp.json`, the user's `~/.troupe/mcp.json`, then
 * inline definitions in agent files' `mcpServers` (a configured server of the same name wins).
 */
export async function mcpServers(
  places: Places,
  agents: readonly AgentDefinition[],
): Promise<{ servers: McpServerEntry[]; warnings: string[] }> {
  const { loadMcpConfig } = await import('@troupe/mcp/node');
  const { parseServerConfig } = await import('@troupe/mcp');
  const loaded = loadMcpConfig({ cwd: places.cwd, home: places.home, environment: places.env });
  const servers = [...loaded.servers];
  const warnings = [...loaded.warnings];
  for (const agent of agents) {
    for (const server of agent.mcpServers ?? []) {
      if (typeof server === 'string' || servers.some((entry) => entry.name === server.name)) continue;
      const source = `agent ${agent.name}${agent.path ? ` (${agent.path})` : ''}`;
      try {
        servers.push({
          name: server.name,
          source,
          config: parseServerConfig(server.name, server.config, source, places.env),
        });
      } catch (error) {
        warnings.push((error as Error).message);
      }
    }
  }
  return { servers, warnings };
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
  options: { listAll?: boolean } = {},
): Promise<McpSetup> {
  const none = (notices: string[]): McpSetup => ({
    hub: undefined,
    toolSources: [],
    notices,
    close: async () => {},
  });
  // The MCP SDK is loaded only when MCP is in use: CLI start-up stays fast without it.
  if (!usesMcp(places, agents)) return none([]);
  const { servers, warnings } = await mcpServers(places, agents);
  if (servers.length === 0) return none(warnings);
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
  return { hub, toolSources: [hub.toolSource()], notices, close: () => hub.close() };
}

/** Shows the runtime's MCP warnings (a server that could not start for a task) through `log`. */
export function showMcpWarnings(runtime: Runtime, log: (text: string) => void): () => void {
  return runtime.on('runtime.warning', (warning) => {
    if (warning.code === 'TOOL_SOURCE_FAILED') log(warning.message);
  });
}
