import type { PermissionMode } from '../definitions/types.js';
import type { ToolAccess } from '../tools/define-tool.js';
import { MCP_TOOL_PREFIX } from '../tools/mcp-names.js';

/** What the host allows of the permission modes agents ask for. */
export interface PermissionModeOptions {
  /**
   * Let an agent's `permissionMode: bypassPermissions` approve write and execute tools without
   * asking (deny rules and a refusing policy still hold). Off by default: such an agent then runs
   * in `default` mode, with a `runtime.warning`.
   */
  allowBypassPermissions?: boolean;
}

/** The mode a task runs in, and why it differs from what the agent asked for (if it does). */
export interface EffectiveMode {
  mode: PermissionMode;
  warning?: string;
}

/**
 * The permission mode a task runs in: the agent's own, unless its parent task runs in
 * `bypassPermissions` (which, as in Claude Code, its children cannot leave), and never
 * `bypassPermissions` unless the host allows it. `auto` (Claude Code's classifier) has no
 * classifier in troupe and runs as `default`.
 */
export function effectiveMode(
  agent: string,
  asked: PermissionMode | undefined,
  parent: PermissionMode | undefined,
  options: PermissionModeOptions,
): EffectiveMode {
  const wanted = parent === 'bypassPermissions' ? parent : (asked ?? 'default');
  if (wanted === 'bypassPermissions' && options.allowBypassPermissions !== true)
    return {
      mode: 'default',
      warning: `Agent "${agent}" asks for permissionMode bypassPermissions, which this runtime does not allow (createRuntime({ permissionModes: { allowBypassPermissions: true } })); it runs in default mode: write and execute tools are approved as usual.`,
    };
  if (wanted === 'auto')
    return {
      mode: 'default',
      warning: `Agent "${agent}" asks for permissionMode auto, which needs Claude Code's classifier; troupe has none, so it runs in default mode.`,
    };
  return { mode: wanted };
}

/**
 * A file edit inside the workspace, which `acceptEdits` approves: a `write`-access tool of the
 * host (troupe's workspace tools are confined to the workspace root), not an MCP server's.
 */
export function isWorkspaceEdit(tool: string, access: ToolAccess): boolean {
  return access === 'write' && !tool.startsWith(MCP_TOOL_PREFIX);
}

/**
 * How the mode settles a write or execute call that the host's policy leaves open (policy `ask`,
 * or a policy function that answered `ask`): `approve`, `deny` with a reason, or `ask` the host.
 * Never consulted for a call a policy or deny rule refused: a mode only answers what is left open.
 */
export function settleByMode(
  mode: PermissionMode | undefined,
  tool: string,
  access: ToolAccess,
): { decision: 'approve' } | { decision: 'deny'; reason: string } | 'ask' {
  switch (mode) {
    case 'plan':
      return { decision: 'deny', reason: 'the agent runs in plan mode (read-only tools only).' };
    case 'acceptEdits':
      return isWorkspaceEdit(tool, access) ? { decision: 'approve' } : 'ask';
    case 'dontAsk':
      return {
        decision: 'deny',
        reason: `the agent runs in dontAsk mode: ${tool} is not pre-approved by the permission rules, so it is denied instead of asked.`,
      };
    case 'bypassPermissions':
      return { decision: 'approve' };
    default:
      return 'ask';
  }
}
