// The public API of @troupe/mcp (browser-safe: no node:* import). Node hosts use @troupe/mcp/node.
export { accessOf, type McpToolAnnotations } from './access.js';
export { expandVariables, type MissingVariable } from './config/expand-variables.js';
export { McpConfigError } from './config/mcp-config-error.js';
export {
  type ParsedMcpConfig,
  type ParseMcpConfigOptions,
  type ParseServerConfigOptions,
  parseMcpConfig,
  parseServerConfig,
} from './config/parse-mcp-config.js';
export {
  type AgentMcpServers,
  agentMcpServers,
  type IgnoredMcpServer,
  type ProjectTrustOptions,
} from './config/project-trust.js';
export type {
  McpHttpServerConfig,
  McpServerCommon,
  McpServerConfig,
  McpServerEntry,
  McpStdioServerConfig,
} from './config/server-config.js';
export {
  HARMLESS_VARIABLES,
  isSecretLookingName,
  isSecretLookingValue,
  type VariablePolicy,
} from './config/variable-policy.js';
export { createHttpTransport } from './http-transport.js';
export {
  createMcpHub,
  McpHub,
  type McpHubOptions,
  type McpServerStatus,
  type McpToolsRequest,
} from './mcp-hub.js';
export { createMcpTool, type McpTool } from './mcp-tool.js';
export { DEFAULT_MAX_MESSAGE_BYTES } from './message-limit.js';
export {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_START_TIMEOUT_MS,
  McpServerConnection,
  type McpServerState,
  type McpToolInfo,
  type McpTransportFactory,
  type McpTransportOptions,
} from './server-connection.js';
export { DEFAULT_MAX_RESULT_CHARS, type McpCallResult, toContentBlocks } from './tool-result.js';
