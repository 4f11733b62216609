import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentDefinition, MCP_TOOL_PREFIX, mcpServerOf, type Tool } from '@troupe/core';
import type { McpHub, McpServerEntry } from '@troupe/mcp';

/** The MCP side of a CLI run: the hub (close it at the end), its tools and what to tell the user. */
export interface McpSetup {
  hub: McpHub | undefined;
  tools: Tool[];
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
 * Starts the MCP servers a run needs and lists their tools: with `only`, the servers that agent
 * names (every server when its tool list is open); otherwise all. A server that fails is a notice,
 * not an error: its tools that agent files name exactly still exist and retry it on use.
 */
export async function openMcp(
  places: Places,
  agents: readonly AgentDefinition[],
  only?: AgentDefinition,
): Promise<McpSetup> {
  // The MCP SDK is loaded only when MCP is in use: CLI start-up stays fast without it.
  if (!usesMcp(places, agents)) return { hub: undefined, tools: [], notices: [], close: async () => {} };
  const { servers, warnings } = await mcpServers(places, agents);
  if (servers.length === 0) return { hub: undefined, tools: [], notices: warnings, close: async () => {} };
  const { createNodeMcpHub } = await import('@troupe/mcp/node');
  const hub = createNodeMcpHub({ servers });
  const open = !only?.tools || only.tools.includes('*');
  const wanted = open
    ? hub.names()
    : serversNamedBy(only)
        .map((name) => hub.serverNamed(name))
        .filter((name): name is string => name !== undefined);
  const expect = agents.flatMap((agent) =>
    (agent.tools ?? []).filter((name) => name.toLowerCase().startsWith(MCP_TOOL_PREFIX)),
  );
  const tools = await hub.tools({ servers: wanted, expect });
  const notices = [
    ...warnings,
    ...hub.problems(),
    ...hub
      .status()
      .filter((server) => wanted.includes(server.name) && server.error)
      .map((server) => `MCP server "${server.name}" is unavailable: ${server.error}`),
  ];
  return { hub, tools, notices, close: () => hub.close() };
}
