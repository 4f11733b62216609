import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../config/server-config.js';
import { createHttpTransport } from '../http-transport.js';
import { McpHub, type McpHubOptions } from '../mcp-hub.js';
import { ProcessGroupStdioTransport } from './stdio-transport.js';

/** The Node transport factory: stdio servers as child process groups, HTTP servers over fetch. */
export function createNodeTransport(name: string, config: McpServerConfig): Transport {
  return config.type === 'stdio' ? new ProcessGroupStdioTransport(config) : createHttpTransport(name, config);
}

/** An {@link McpHub} for Node: stdio and Streamable HTTP servers. */
export function createNodeMcpHub(options: Omit<McpHubOptions, 'createTransport'> = {}): McpHub {
  return new McpHub({ ...options, createTransport: createNodeTransport });
}
