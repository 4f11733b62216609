import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../config/server-config.js';
import { createHttpTransport } from '../http-transport.js';
import { McpHub, type McpHubOptions } from '../mcp-hub.js';
import type { McpTransportOptions } from '../server-connection.js';
import { ProcessGroupStdioTransport } from './stdio-transport.js';

/**
 * The Node transport factory: stdio servers as child process groups, HTTP servers over fetch;
 * both refuse a message over `options.maxMessageBytes` (default 10 MB) per message.
 */
export function createNodeTransport(
  name: string,
  config: McpServerConfig,
  options?: McpTransportOptions,
): Transport {
  return config.type === 'stdio'
    ? new ProcessGroupStdioTransport(config, { name, ...options })
    : createHttpTransport(name, config, options);
}

/** An {@link McpHub} for Node: stdio and Streamable HTTP servers. */
export function createNodeMcpHub(options: Omit<McpHubOptions, 'createTransport'> = {}): McpHub {
  return new McpHub({ ...options, createTransport: createNodeTransport });
}
