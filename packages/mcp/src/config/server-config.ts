import type { ToolAccess } from '@troupe/core';

/** Settings every server entry may carry besides how to reach it (troupe's additions). */
export interface McpServerCommon {
  /** Access class for every tool of this server, overriding what its annotations say. */
  access?: ToolAccess;
  /** Access class per tool (the server's own tool name), overriding `access` and annotations. */
  toolAccess?: Record<string, ToolAccess>;
  /** How long one tool call may take, in ms. Default 60,000. */
  timeoutMs?: number;
  /** How long connecting and listing tools may take, in ms. Default 30,000. */
  startTimeoutMs?: number;
}

/** A server run as a child process speaking MCP over stdin/stdout (Node only). */
export interface McpStdioServerConfig extends McpServerCommon {
  type: 'stdio';
  command: string;
  args: string[];
  /** Variables the server gets on top of a safe base environment (PATH, HOME, ...). Secret. */
  env: Record<string, string>;
  /** Working directory; default the host's. */
  cwd?: string;
}

/** A server reached over MCP Streamable HTTP (Node and browsers). */
export interface McpHttpServerConfig extends McpServerCommon {
  type: 'http';
  url: string;
  /** Sent with every request (e.g. `Authorization`). Secret. */
  headers: Record<string, string>;
}

/** One configured MCP server, after parsing and `${VAR}` expansion. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** A named server configuration and where it came from (for messages; never its secrets). */
export interface McpServerEntry {
  name: string;
  config: McpServerConfig;
  /** `code`, a file path, or `agent <name>` for inline definitions in agent files. */
  source: string;
}
