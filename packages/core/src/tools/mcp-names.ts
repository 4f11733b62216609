/** Every MCP tool's troupe name starts with this: `mcp__<server>__<tool>` (Claude Code's form). */
export const MCP_TOOL_PREFIX = 'mcp__';

const TOOL_NAME_MAX_LENGTH = 64;

/** Replaces every character the model API refuses in a tool name (`[^a-zA-Z0-9_-]`) with `_`. */
export function sanitiseMcpName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_');
}

/** 32-bit FNV-1a, as 7 base-36 digits: a short, stable suffix for names cut to 64 characters. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36).padStart(7, '0');
}

/**
 * The troupe name of an MCP server's tool: `mcp__<server>__<tool>`, each part sanitised. A name
 * longer than the API's 64 characters keeps its first 56 and ends with `_` plus a hash of the
 * whole name, so it stays unique and stable. Two different tools may still map to one name (the
 * caller reports such collisions).
 */
export function mcpToolName(server: string, tool: string): string {
  const name = `${MCP_TOOL_PREFIX}${sanitiseMcpName(server)}__${sanitiseMcpName(tool)}`;
  if (name.length <= TOOL_NAME_MAX_LENGTH) return name;
  return `${name.slice(0, TOOL_NAME_MAX_LENGTH - 8)}_${shortHash(name)}`;
}

/**
 * The (sanitised) server an MCP name or tool-list pattern refers to: `mcp__github`,
 * `mcp__github__*` and `mcp__github__create_issue` all give `github`; anything else gives
 * undefined.
 */
export function mcpServerOf(nameOrPattern: string): string | undefined {
  if (!nameOrPattern.toLowerCase().startsWith(MCP_TOOL_PREFIX)) return undefined;
  const rest = nameOrPattern.slice(MCP_TOOL_PREFIX.length);
  const end = rest.indexOf('__');
  const server = end === -1 ? rest : rest.slice(0, end);
  return server && server !== '*' ? server : undefined;
}
