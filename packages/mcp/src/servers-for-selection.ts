import { MCP_TOOL_PREFIX, type ToolSelection } from '@troupe/core';
import { sanitiseMcpName } from '@troupe/core/internal';

/** What a task's tool selection needs from the MCP servers. */
export interface ServersForSelection {
  /** Configured servers the selection can reach (they start when asked for their tools). */
  servers: string[];
  /** Exact MCP tool names the selection lists (kept as stand-ins if their server cannot start). */
  expect: string[];
}

/** Whether `pattern` (lower case) can select a tool of the server whose names start with `prefix`. */
function reaches(pattern: string, prefix: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('*')) {
    const start = pattern.slice(0, -1);
    return prefix.startsWith(start) || start.startsWith(prefix);
  }
  return `${pattern}__` === prefix || pattern.startsWith(prefix);
}

/** Whether `pattern` (lower case) removes every tool of the server whose names start with `prefix`. */
function removesAll(pattern: string, prefix: string): boolean {
  if (pattern.endsWith('*')) return prefix.startsWith(pattern.slice(0, -1));
  return `${pattern}__` === prefix;
}

/**
 * The servers of `names` whose tools a task with `selection` could get, judged from the patterns
 * alone (nothing is started): every server for an open allow-list (absent or `*`), otherwise those
 * an allow pattern reaches (`mcp__files`, `mcp__files__*`, `mcp__files__read_file`, `mcp__*`), minus
 * those a deny pattern removes whole (`mcp__files`, `mcp__files__*`).
 */
export function serversForSelection(names: readonly string[], selection: ToolSelection): ServersForSelection {
  const allow = selection.allow?.map((pattern) => pattern.toLowerCase());
  const deny = (selection.deny ?? []).map((pattern) => pattern.toLowerCase());
  const open = !allow || allow.includes('*');
  const servers = names.filter((name) => {
    const prefix = `${MCP_TOOL_PREFIX}${sanitiseMcpName(name).toLowerCase()}__`;
    if (!open && !allow.some((pattern) => reaches(pattern, prefix))) return false;
    return !deny.some((pattern) => removesAll(pattern, prefix));
  });
  const expect = (selection.allow ?? []).filter((pattern) => {
    const lower = pattern.toLowerCase();
    return (
      lower.startsWith(MCP_TOOL_PREFIX) &&
      !lower.includes('*') &&
      lower.slice(MCP_TOOL_PREFIX.length).includes('__')
    );
  });
  return { servers, expect };
}
