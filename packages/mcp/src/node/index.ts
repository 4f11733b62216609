// @troupe/mcp/node: what needs Node (child processes, files, the home directory).
export { createNodeMcpHub, createNodeTransport } from './create-node-mcp-hub.js';
export {
  type LoadedMcpConfig,
  type LoadMcpConfigOptions,
  loadMcpConfig,
  mcpConfigFiles,
} from './load-mcp-config.js';
export { INHERITED_VARIABLES, serverEnvironment } from './safe-environment.js';
export { ProcessGroupStdioTransport, type StdioTransportOptions } from './stdio-transport.js';
