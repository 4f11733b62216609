import type { JsonSchema } from '../model/types.js';

/** Where a definition came from, highest precedence first. */
export type AgentSource = 'code' | 'project' | 'user' | 'builtin';

/**
 * An MCP server an agent uses: the name of a server the host configured (`.mcp.json`), or an
 * inline definition (`config` is a `.mcp.json` server entry, checked by the MCP client).
 */
type AgentMcpServer = string | { name: string; config: Record<string, unknown> };

/** Claude Code's permission modes (documentation v2.1.240). */
export const PERMISSION_MODES = [
  'default',
  'acceptEdits',
  'plan',
  'auto',
  'dontAsk',
  'bypassPermissions',
] as const;
/** How a task's write and execute tools are approved; one of `default`, `acceptEdits`, `plan`, `auto`, `dontAsk`, `bypassPermissions`. */
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** Claude Code's effort levels, lowest first. */
export const AGENT_EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
/** An agent's reasoning effort; one of `low`, `medium`, `high`, `xhigh`, `max`. */
export type AgentEffort = (typeof AGENT_EFFORTS)[number];

/** Where an agent's memory folder lives: `~/.claude/agent-memory/<name>/` (user), the project's, or the project's local one. */
export type AgentMemoryScope = 'user' | 'project' | 'local';

/** Claude Code's `isolation` values. */
export type AgentIsolation = 'worktree';

/** One hook command (Claude Code's `{ type: 'command', command, timeout }`; timeout in seconds). */
export interface AgentHookCommand {
  type: 'command';
  command: string;
  /** Seconds before the command is killed. */
  timeout?: number;
}

/** An HTTP hook (Claude Code's `{ type: 'http', url, headers, allowedEnvVars, timeout }`). */
export interface AgentHookHttp {
  type: 'http';
  url: string;
  headers?: Record<string, string>;
  allowedEnvVars?: string[];
  /** Seconds before the request is given up. */
  timeout?: number;
}

/** A prompt hook (Claude Code's `{ type: 'prompt', prompt, model, timeout }`): one model call judging the event. */
export interface AgentHookPrompt {
  type: 'prompt';
  prompt: string;
  model?: string;
  /** Seconds before the model call is given up. */
  timeout?: number;
}

/** The hooks run for one event when the matcher (a tool-name pattern, `|`-separated or a regex) fits. */
export interface AgentHookMatcher {
  matcher?: string;
  hooks: (AgentHookCommand | AgentHookHttp | AgentHookPrompt)[];
}

/** Hooks by event name (`PreToolUse`, `PostToolUse`, `Stop`, …), in Claude Code's shape. */
export type AgentHooks = Partial<Record<string, AgentHookMatcher[]>>;

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
  /** Display colour (Claude Code's names: red, blue, green, yellow, purple, orange, pink, cyan; or `#rrggbb`). */
  color?: string;
  /**
   * Claude Code's `permissionMode`: how the task's write and execute tools are approved (see the
   * README, "Permission modes"). Deny rules and a host policy that refuses hold in every mode.
   */
  permissionMode?: PermissionMode;
  /** Skill names whose full text is preloaded into the agent's context (Claude Code's `skills`). */
  skills?: string[];
  /** Lifecycle hooks scoped to this agent, in Claude Code's shape (`PreToolUse`, `PostToolUse`, `Stop`, …). */
  hooks?: AgentHooks;
  /** Persistent memory folder scope (Claude Code's `memory`). */
  memory?: AgentMemoryScope;
  /** Reasoning effort: the model's thinking budget (Claude Code's `effort`). */
  effort?: AgentEffort;
  /**
   * Claude Code's `initialPrompt`: the first user turn when this agent runs as a session's main
   * agent, and prepended to the prompt of a task it runs.
   */
  initialPrompt?: string;
  /** `worktree`: the task runs in a new git worktree of the workspace (Claude Code's `isolation`). */
  isolation?: AgentIsolation;
  /** Where it was loaded from (file path), if from a file. */
  path?: string;
  source?: AgentSource;
  /** Front-matter keys troupe does not know, kept as they were. */
  extra?: Record<string, unknown>;
}
