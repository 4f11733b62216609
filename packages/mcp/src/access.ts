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
 * else from annotations: `readOnlyHint: true` → `read`; `destructiveHint` or `openWorldHint`
 * true → `execute`; anything else → `write`. Hints are the server's word, so only an explicit
 * `true` makes a tool `read`; a tool without annotations goes through approvals.
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
  if (annotations?.readOnlyHint === true) return 'read';
  if (annotations?.destructiveHint === true || annotations?.openWorldHint === true) return 'execute';
  return 'write';
}
