import type { ToolAccess } from '@troupe/core';
import type { McpServerCommon } from './config/server-config.js';

/** The hints an MCP server may give about a tool (MCP `ToolAnnotations`). */
export interface McpToolAnnotations {
  readOnlyHint?: boolean | undefined;
  destructiveHint?: boolean | undefined;
  openWorldHint?: boolean | undefined;
  idempotentHint?: boolean | undefined;
  title?: string | undefined;
}

/**
 * A tool's access class: the configuration's per-tool override, else its per-server override,
 * else from annotations: `destructiveHint` or `openWorldHint` true → `execute`; anything else →
 * `write`. Only the user's configuration can make a tool `read` (run without approval): a server's
 * `readOnlyHint` is its own word about itself, so it never lowers the class (show it as
 * information only). A hint may raise it: a destructive tool is `execute`.
 */
export function accessOf(
  toolName: string,
  annotations: McpToolAnnotations | undefined,
  overrides: McpServerCommon,
): ToolAccess {
  const perTool =
    overrides.toolAccess && Object.hasOwn(overrides.toolAccess, toolName)
      ? overrides.toolAccess[toolName]
      : undefined;
  if (perTool) return perTool;
  if (overrides.access) return overrides.access;
  if (annotations?.destructiveHint === true || annotations?.openWorldHint === true) return 'execute';
  return 'write';
}
