import type { InspectionEvent, Observer } from 'xstate';
import type { Clock } from '../clock.js';
import type { RuntimeHooks } from '../hooks/hook-points.js';
import type { AgentMemory } from '../memory/agent-memory.js';
import type { ModelAdapter } from '../model/types.js';
import type { TaskStore } from '../persistence/types.js';
import type { Skill } from '../skills/skill.js';
import type { Tool } from '../tools/define-tool.js';
import type { ToolSource } from '../tools/tool-source.js';
import type { DEFAULT_PRICES, PriceTable } from '../usage/prices.js';
import type { AgentCatalogSource, ModelConfig } from './agent-catalog.js';
import type { ApprovalPolicy } from './approvals.js';
import type { PermissionModeOptions } from './permission-modes.js';
import type { RuntimeLimits } from './runtime-limits.js';
import type { TaskWorkspaces } from './task-workspaces.js';

/** Options of {@link createRuntime}. */
export interface RuntimeOptions {
  model: ModelAdapter;
  /** Agent definitions (highest precedence), or a registry that already holds them. */
  agents?: AgentCatalogSource;
  /** The base tool set every agent's registry is cut from. */
  tools?: readonly Tool[];
  /**
   * Tools asked for when a task starts, before its first model call (e.g. MCP servers' tools,
   * which start their server then): see {@link ToolSource}. None by default.
   */
  toolSources?: readonly ToolSource[];
  limits?: Partial<RuntimeLimits>;
  /** How write and execute tools are approved. Default `ask`. */
  approval?: ApprovalPolicy;
  /**
   * What agents' `permissionMode` may do here: `bypassPermissions` only with
   * `{ allowBypassPermissions: true }` (otherwise such an agent runs in `default`, with a warning).
   */
  permissionModes?: PermissionModeOptions;
  /** Where tasks are persisted. Default: an in-memory store. */
  store?: TaskStore;
  /** Model ids for `inherit` and the aliases `small`, `plan`, `haiku`, `sonnet`, `opus`. */
  models?: ModelConfig;
  /** Max tokens per model response. Default 8,192. */
  maxTokens?: number;
  /**
   * Gives sessions' main agents `TeamCreate` and `TeamDelete` (agent teams), as Claude Code does
   * with `CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS`. Default false: two tool schemas less in every
   * main-agent request. `runtime.createTeam` works either way.
   */
  teamTools?: boolean;
  /** Length of the grace turn after MAX_TURNS or TIMEOUT. Default min(30 s, timeout / 5). */
  graceMs?: number;
  clock?: Clock;
  /** Task id generator (ids must be unique per store). */
  createId?: () => string;
  /** An XState inspection observer (e.g. from @statelyai/inspect) attached to every actor. */
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
  /**
   * Prices per million tokens by model, for the cost estimates of {@link Runtime.usage}. Default:
   * Anthropic's list prices ({@link DEFAULT_PRICES}); costs are estimates, not a bill.
   */
  prices?: PriceTable;
  /**
   * Callbacks at Claude Code's hook points (`PreToolUse`, `PostToolUse`, `SubagentStart`,
   * `SubagentStop`); their answers are journaled. `@troupe/node`'s `createShellHooks` runs shell hooks.
   */
  hooks?: RuntimeHooks;
  /** Skills agents may list (`skills` in an agent file): each listed one is preloaded into its system prompt. */
  skills?: readonly Skill[];
  /** Where agents with `memory` keep it: their `MEMORY.md` is given to them at start, with tools over the folder. */
  memory?: AgentMemory;
  /**
   * Gives a task whose agent asks for `isolation` a workspace of its own (in Node, a git worktree:
   * `@troupe/node`'s `createWorktreeWorkspaces`). Without it, such an agent cannot be spawned.
   */
  workspaces?: TaskWorkspaces;
}
