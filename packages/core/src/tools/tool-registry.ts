import { type SerializedError, ToolError } from '../errors.js';
import type { ToolSpec } from '../model/types.js';
import type { Tool } from './define-tool.js';
import { MCP_TOOL_PREFIX } from './mcp-names.js';

/** An agent's own, isolated set of tools. Only tools in it can ever run for that agent. */
export interface ToolRegistry {
  readonly names: readonly string[];
  /** The tool of that exact name; undefined when there is none. */
  get(name: string): Tool | undefined;
  /** Whether a tool of that exact name is registered. */
  has(name: string): boolean;
  /** The specs sent to the model, in a stable order (cacheable). */
  readonly specs: readonly ToolSpec[];
  /**
   * Present on a registry that gains tools from tool sources: a promise while they are being asked
   * (no effect of the task may start before it settles), undefined once they answered.
   */
  ready?(): Promise<void> | undefined;
  /**
   * Present on a registry that may fail to become ready (a task's own workspace that could not be
   * opened): the error the task fails with at its next model call, once `ready()` settled.
   */
  failure?(): SerializedError | undefined;
}

/**
 * Allow-list (`undefined` or containing `*` = all) then deny-list. Patterns may end in `*`; a bare
 * `mcp__<server>` stands for every tool of that MCP server (`mcp__<server>__*`), as in Claude Code.
 */
export interface ToolSelection {
  allow?: readonly string[] | undefined;
  deny?: readonly string[] | undefined;
}

function matches(pattern: string, name: string): boolean {
  if (pattern === '*') return true;
  let lower = pattern.toLowerCase();
  if (
    lower.startsWith(MCP_TOOL_PREFIX) &&
    !lower.slice(MCP_TOOL_PREFIX.length).includes('__') &&
    !lower.endsWith('*')
  )
    lower = `${lower}__*`;
  if (lower.endsWith('*')) return name.toLowerCase().startsWith(lower.slice(0, -1));
  return lower === name.toLowerCase();
}

/**
 * Builds an agent's registry from the base set: keep what the allow-list names (all when it is
 * absent or `*`), then drop what the deny-list names. Names match case-insensitively, so Claude
 * Code's `Read, Grep` select troupe's `read`, `grep`. Names that match nothing are returned in
 * `unmatched` so callers can warn.
 */
export function createToolRegistry(
  base: readonly Tool[],
  selection: ToolSelection = {},
): ToolRegistry & { unmatched: string[] } {
  const allow = selection.allow;
  const deny = selection.deny ?? [];
  const selected = new Map<string, Tool>();
  const unmatched: string[] = [];
  if (!allow || allow.includes('*')) {
    for (const tool of base) selected.set(tool.name, tool);
  } else {
    for (const pattern of allow) {
      let found = false;
      for (const tool of base) {
        if (matches(pattern, tool.name)) {
          selected.set(tool.name, tool);
          found = true;
        }
      }
      if (!found) unmatched.push(pattern);
    }
  }
  for (const pattern of deny) {
    for (const name of [...selected.keys()]) if (matches(pattern, name)) selected.delete(name);
  }
  const tools = [...selected.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const specs = tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputJsonSchema,
  }));
  return {
    names: tools.map((tool) => tool.name),
    get: (name) => byName.get(name),
    has: (name) => byName.has(name),
    specs,
    unmatched,
  };
}

/** Throws if two tools share a name (a host bug that would make isolation ambiguous). */
export function assertUniqueToolNames(tools: readonly Tool[]): void {
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name))
      throw new ToolError('TOOL_DEFINITION_INVALID', tool.name, `Two tools are named "${tool.name}".`);
    seen.add(tool.name);
  }
}

/**
 * Throws a `ToolError` (TOOL_DEFINITION_INVALID) when a host tool has the name of one of the
 * runtime's main tools (`task`, `task_status`, ...): one of the two would be silently shadowed.
 */
export function assertNoShadowedMainTool(hostTools: readonly Tool[], mainTools: readonly Tool[]): void {
  const reserved = new Set(mainTools.map((tool) => tool.name));
  for (const tool of hostTools) {
    if (reserved.has(tool.name))
      throw new ToolError(
        'TOOL_DEFINITION_INVALID',
        tool.name,
        `A host tool is named "${tool.name}", which is the name of a main tool the runtime provides (${[...reserved].join(', ')}): rename the host tool.`,
      );
  }
}
