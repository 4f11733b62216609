import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from './config/server-config.js';
import { fetchWithMessageLimit } from './limited-fetch.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from './message-limit.js';
import type { McpTransportOptions } from './server-connection.js';

/**
 * The transport factory for browsers (and any host without child processes): Streamable HTTP
 * servers only; a stdio server fails to start with a message pointing at `@troupe/mcp/node`. A
 * message over `options.maxMessageBytes` (default 10 MB) is refused on its own, as over stdio
 * (see `fetchWithMessageLimit`).
 */
export function createHttpTransport(
  name: string,
  config: McpServerConfig,
  options?: McpTransportOptions,
): Transport {
  if (config.type !== 'http')
    throw new Error(
      `MCP server "${name}" is a stdio server; stdio needs Node (use createNodeMcpHub from @troupe/mcp/node).`,
    );
  return new StreamableHTTPClientTransport(new URL(config.url), {
    requestInit: { headers: config.headers },
    fetch: fetchWithMessageLimit(options?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES),
  });
}
