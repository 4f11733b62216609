import type { JsonSchema } from '../model/types.js';

/** Where a definition came from, highest precedence first. */
export type AgentSource = 'code' | 'project' | 'user' | 'builtin';

/**
 * An MCP server an agent uses: the name of a server the host configured (`.mcp.json`), or an
 * inline definition (`config` is a `.mcp.json` server entry, checked by the MCP client).
 */
type AgentMcpServer = string | { name: string; config: Record<string, unknown> };

/**
 * A sub-agent definition: Claude Code-compatible fields (see the README, "Writing agents").
 * Only `name`, `description` and `systemPrompt` are required; everything else falls back to the
 * runtime's defaults.
 */
export interface AgentDefinition {
  /** Unique id: lowercase letters, digits, hyphens. */
  name: string;
  /** When to use this agent; shown to the main agent in the `task` tool. */
  description: string;
  /** The agent's system prompt (the Markdown body). */
  systemPrompt: string;
  /** Allow-list of tool names; `['*']` or undefined = every base tool. Patterns may end in `*`. */
  tools?: string[];
  /** Deny-list; wins over `tools`. */
  disallowedTools?: string[];
  /**
   * MCP servers the agent uses (Claude Code's `mcpServers`). With an explicit `tools` list, every
   * tool of these servers is allowed too (`mcp__<server>`).
   */
  mcpServers?: AgentMcpServer[];
  /** `inherit`, an alias (`haiku`, `sonnet`, `opus`, `small`, `plan`) or a full model id. */
  model?: string;
  maxTurns?: number;
  /** Wall-clock limit in ms. */
  timeoutMs?: number;
  /** Input + output tokens. */
  tokenBudget?: number;
  /** JSON Schema the task input must satisfy. */
  inputSchema?: JsonSchema;
  /** JSON Schema the final answer must satisfy (the answer is parsed as JSON). */
  outputSchema?: JsonSchema;
  /** The child sees the parent's conversation, normalised. */
  forkContext?: boolean;
  /** Always run in the background. */
  background?: boolean;
  color?: string;
  /** Where it was loaded from (file path), if from a file. */
  path?: string;
  source?: AgentSource;
  /** Front-matter keys troupe does not know, kept as they were. */
  extra?: Record<string, unknown>;
}
