import type { McpServerStatus } from '@troupe/mcp';
import type { Colors } from './colors.js';

const ACCESS_ORDER = { read: 0, write: 1, execute: 2 } as const;

/** `troupe mcp list` and `/mcp`: each server with its state, then its tools and access classes. */
export function mcpStatusLines(servers: readonly McpServerStatus[], colors: Colors): string[] {
  if (servers.length === 0)
    return [
      'No MCP servers configured. Add them to .mcp.json in the project or ~/.troupe/mcp.json:',
      '  { "mcpServers": { "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."] } } }',
    ];
  const lines: string[] = [];
  for (const server of servers) {
    const state =
      server.state === 'ready'
        ? colors.green('ready')
        : server.state === 'failed'
          ? colors.red('failed')
          : colors.yellow(server.state);
    const count = server.tools.length;
    lines.push(
      `${colors.bold(server.name)} ${colors.dim(`(${server.type}, ${server.source})`)} ${state}${server.state === 'ready' ? colors.dim(` · ${count} tool${count === 1 ? '' : 's'}`) : ''}`,
    );
    if (server.error) lines.push(`  ${colors.red(server.error)}`);
    const tools = [...server.tools].sort(
      (a, b) => ACCESS_ORDER[a.access] - ACCESS_ORDER[b.access] || a.name.localeCompare(b.name),
    );
    const width = Math.max(0, ...tools.map((tool) => tool.name.length));
    for (const tool of tools) {
      const access = tool.access === 'read' ? colors.green(tool.access) : colors.yellow(tool.access);
      // The server's readOnlyHint is its word, not the user's: say so, and how to trust it.
      const hint =
        tool.serverSaysReadOnly && tool.access !== 'read'
          ? colors.dim(
              `  (the server says read-only; "toolAccess": { ${JSON.stringify(tool.mcpName)}: "read" } trusts it)`,
            )
          : '';
      lines.push(`  ${tool.name.padEnd(width)}  ${access}${hint}`);
    }
  }
  return lines;
}
