import { type AgentDefinition, MCP_TOOL_PREFIX, mcpServerOf } from '@troupe/core';
import { mcpServers, serversNamedBy, usesMcp } from '../setup/mcp.js';
import type { ProjectTrust } from '../setup/project-trust.js';

/**
 * Checks what agents say about MCP against the configuration: a server no configuration provides,
 * and an exact tool name (`mcp__server__tool`) its server does not offer. To know a server's
 * tools, the servers such names refer to are started (and stopped again): only those `trust`
 * allows (an untrusted project's servers are never started; names they provide are reported).
 */
export async function mcpFindings(
  agents: readonly AgentDefinition[],
  places: { cwd: string; home: string; env: Readonly<Record<string, string | undefined>> },
  trust: Pick<ProjectTrust, 'trusted' | 'projectVariables'>,
): Promise<{ message: string; file?: string }[]> {
  if (!usesMcp(places, agents)) return [];
  const { servers, warnings, ignored } = await mcpServers(places, agents, trust);
  const { createNodeMcpHub } = await import('@troupe/mcp/node');
  const findings: { message: string; file?: string }[] = warnings.map((message) => ({ message }));
  for (const server of ignored)
    findings.push({
      message: `MCP server "${server.name}" (${server.source}) was not checked: the project folder is not trusted (troupe trust).`,
    });
  const unchecked = new Set(ignored.map((server) => server.name));
  const hub = createNodeMcpHub({ servers });
  const where = (agent: AgentDefinition) =>
    agent.path ? `${agent.path}: agent "${agent.name}"` : `agent "${agent.name}"`;
  const at = (agent: AgentDefinition) => (agent.path ? { file: agent.path } : {});
  const exact: { agent: AgentDefinition; tool: string; server: string }[] = [];
  for (const agent of agents) {
    for (const name of serversNamedBy(agent)) {
      if (!hub.serverNamed(name) && !unchecked.has(name))
        findings.push({
          message: `${where(agent)} names MCP server "${name}", which no configuration provides (.mcp.json, ~/.troupe/mcp.json or an inline mcpServers entry).`,
          ...at(agent),
        });
    }
    for (const tool of agent.tools ?? []) {
      const server = hub.serverNamed(mcpServerOf(tool) ?? '');
      const rest = tool.slice(MCP_TOOL_PREFIX.length);
      if (server && rest.includes('__') && !tool.endsWith('*')) exact.push({ agent, tool, server });
    }
  }
  try {
    if (exact.length) {
      const tools = await hub.tools({ servers: [...new Set(exact.map((entry) => entry.server))] });
      const names = new Set(tools.map((tool) => tool.name.toLowerCase()));
      const status = new Map(hub.status().map((server) => [server.name, server]));
      for (const { agent, tool, server } of exact) {
        if (names.has(tool.toLowerCase())) continue;
        const state = status.get(server);
        findings.push({
          message: state?.error
            ? `${where(agent)} names MCP tool "${tool}", which cannot be checked: MCP server "${server}" ${state.error}`
            : `${where(agent)} names MCP tool "${tool}", which MCP server "${server}" does not provide (it has ${state?.tools.map((entry) => entry.name).join(', ') || 'no tools'}).`,
          ...at(agent),
        });
      }
    }
  } finally {
    await hub.close();
  }
  return findings;
}
