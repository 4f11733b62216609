import {
  type AgentMemory,
  type AgentRegistry,
  createRuntime,
  type ModelAdapter,
  type ModelConfig,
  type PermissionPolicy,
  type PriceTable,
  type Runtime,
  type RuntimeHooks,
  type RuntimeLimits,
  type RuntimeOptions,
  type Skill,
  type TaskStore,
  type TaskWorkspaces,
  type Tool,
  type ToolSource,
} from '@troupe/core';
import { createNodeTools, createWorktreeWorkspaces } from '@troupe/node';
import { type CliConfig, configLimits, configPrices } from '../config.js';
import type { CliContext } from '../io.js';
import { createClaudeModel, modelChoice } from '../model.js';
import type { AgentPlaces } from './agents.js';
import { type ApprovalChoice, chooseApproval } from './approval-policy.js';
import { cliHooks, type HookSettings } from './hooks.js';
import { type McpSetup, openMcp } from './mcp.js';
import { permissionPolicyFor, runtimeApproval } from './permissions.js';
import { loadProjectParts } from './project-parts.js';
import { type ProjectTrust, projectTrust, rememberTrust } from './project-trust.js';
import { cliMemory, MEMORY_WRITE_TOOLS, type SkillSettings } from './skills.js';
import { openStore, storeDir } from './task-store.js';
import { askToTrust, hasUntrustedParts, ignoredNotice } from './trust-report.js';

/** What a CLI runtime is built from: every command that runs agents fills this in. */
export interface CliRuntimeSetup {
  model: ModelAdapter;
  models: ModelConfig;
  registry: AgentRegistry;
  tools: Tool[];
  /** Tools asked for when a task starts: the MCP servers' (they start then). */
  toolSources?: ToolSource[];
  limits: Partial<RuntimeLimits>;
  approval: 'ask' | 'auto' | 'deny';
  /** The permission rules (settings files, plus scoped "always allow" answers); none: the plain mode. */
  permissions?: PermissionPolicy;
  /** The file store's folder. */
  storeDir: string;
  /** Shell hooks of the settings and agent files (as far as the project is trusted). */
  hooks?: RuntimeHooks;
  /** Skills agents may list. */
  skills?: Skill[];
  /** Agent memory folders (the project's once trusted). */
  memory?: AgentMemory;
  /** Where hook, skill and memory problems met while tasks run are told; default stderr. */
  notice?: (text: string) => void;
  /** Worktrees for agents with `isolation: worktree` (a command that runs no task may leave it out). */
  workspaces?: TaskWorkspaces;
  /** The prices of cost estimates: list prices, with the config's `prices` over them. */
  prices?: PriceTable;
  /** Main agents get `TeamCreate`/`TeamDelete` (agent teams). */
  teamTools?: boolean;
}

/** The config file and flags of a command, read: where things are and how approvals go. */
export interface CliSettings {
  places: { cwd: string; home: string };
  config: CliConfig;
  agentsAt: AgentPlaces;
  registry: AgentRegistry;
  approvalChoice: ApprovalChoice;
  permissions: PermissionPolicy;
  /** The config and settings files read, user's first (shown by {@link describeSetup}). */
  settingsFiles: string[];
  storeDir: string;
  limits: Partial<RuntimeLimits>;
  /** The prices of cost estimates (`configPrices`). */
  prices: PriceTable;
  /** Whether main agents get `TeamCreate`/`TeamDelete`: `CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS` set (as in Claude Code). */
  teamTools?: boolean;
  /** Whether the user trusts the project folder (what it brings is used only then). */
  trust: ProjectTrust;
  /** What to tell the user at start: what an untrusted project brought that was ignored, and why. */
  notices: string[];
  /** Hooks from the settings and agent files (their problems are in `notices`). */
  hookSettings: HookSettings;
  /** Skills from the skill folders (their problems are in `notices`). */
  skillSettings: SkillSettings;
}

/** Settings plus the model, the Node tools and the MCP servers: ready for {@link createCliRuntime}. */
export interface CliSetup extends CliSettings, CliRuntimeSetup {
  permissions: PermissionPolicy;
  prices: PriceTable;
  mcp: McpSetup;
}

/**
 * Reads the config file, the agent folders and the permission settings, and chooses how approvals
 * go (`interactive`: a terminal can answer them). What the project folder brings that could run
 * code or widen permissions is used only if the user trusts the folder (see `projectTrust`);
 * otherwise it is left out and `notices` says what and why, or, with `askTrust` (a session on a
 * terminal), the user is asked once and a yes is remembered. Cheap: no model, no MCP server.
 */
export async function loadCliSettings(
  context: CliContext,
  options: { interactive: boolean; askTrust?: boolean },
): Promise<CliSettings> {
  const places = { cwd: context.cwd, home: context.home };
  let trust = projectTrust({ ...places, env: context.env, flag: context.line.options.trustProject === true });
  let parts = await loadProjectParts(context, trust);
  const notices: string[] = [];
  if (!trust.trusted && hasUntrustedParts(parts.untrusted)) {
    if (options.askTrust && (await askToTrust(context, parts.untrusted, trust.folder))) {
      rememberTrust(context.home, trust.folder);
      trust = { ...trust, trusted: true, reason: 'remembered' };
      parts = await loadProjectParts(context, trust);
    } else notices.push(ignoredNotice(parts.untrusted, trust.folder));
  }
  const { config, agentsAt, registry } = parts;
  notices.push(...parts.hooks.problems, ...parts.skills.notices);
  const approvalChoice = chooseApproval(context.line.options, config, options.interactive);
  const permissions = permissionPolicyFor(parts.permissions, approvalChoice.mode, context.cwd);
  // An agent with memory updates it unasked, as in Claude Code: its tools reach only its folder.
  if (registry.list().some((agent) => agent.memory))
    for (const tool of MEMORY_WRITE_TOOLS) permissions.allow(tool);
  return {
    trust,
    notices,
    places,
    config,
    agentsAt,
    registry,
    approvalChoice,
    permissions,
    settingsFiles: parts.settingsFiles,
    storeDir: storeDir(places, context.line.options.store),
    limits: configLimits(config),
    prices: configPrices(config),
    teamTools: agentTeamsEnabled(context.env),
    hookSettings: parts.hooks,
    skillSettings: parts.skills,
  };
}

/**
 * Adds Claude (`--model` and friends; throws the no-key `CliError` without a key), the Node tools
 * over the working folder and the configured MCP servers (close `mcp` at the end) to `settings`.
 */
export async function loadCliSetup(
  context: CliContext,
  settings: CliSettings,
  hooks: { onRetry?: (notice: string) => void } = {},
): Promise<CliSetup> {
  const { model, models } = await createClaudeModel(
    context.env,
    modelChoice(context.line.options, settings.config),
    hooks,
  );
  const mcp = await openMcp({ ...settings.places, env: context.env }, settings.registry.list(), {
    trust: settings.trust,
  });
  // Shown where every command shows its MCP notices: first, what an untrusted project brought.
  mcp.notices.unshift(...settings.notices);
  const notice = (text: string) => context.stderr.write(`${text}\n`);
  const shellHooks = cliHooks({
    cwd: context.cwd,
    settings: settings.hookSettings,
    registry: settings.registry,
    trusted: settings.trust.trusted,
    ...(settings.config.bashPassEnv ? { passEnv: settings.config.bashPassEnv } : {}),
    promptHooks: { model, modelId: models.small ?? models.haiku ?? models.default },
    onWarning: notice,
  });
  const toolOptions = settings.config.bashPassEnv ? { bashPassEnv: settings.config.bashPassEnv } : {};
  return {
    ...(shellHooks ? { hooks: shellHooks } : {}),
    skills: settings.skillSettings.skills,
    memory: cliMemory(settings.places, settings.trust.trusted),
    notice,
    ...settings,
    model,
    models,
    tools: createNodeTools({ root: context.cwd, ...toolOptions }),
    // Made lazily: git runs only when an agent with `isolation: worktree` is spawned.
    workspaces: createWorktreeWorkspaces({ root: context.cwd, home: context.home, tools: toolOptions }),
    toolSources: mcp.toolSources,
    approval: settings.approvalChoice.mode,
    mcp,
  };
}

/** What differs between the CLI's runtimes. */
export interface CliRuntimeOptions {
  /** Where agents are looked up; default `setup.registry` (a session passes a live view). */
  agents?: RuntimeOptions['agents'];
  /** An already open store; default the file store in `setup.storeDir`. */
  store?: TaskStore;
  inspect?: RuntimeOptions['inspect'];
  /** The id of the first task (`troupe run --task-id`); later ones get `-2`, `-3`, … */
  taskId?: string;
}

/** What every runtime of the CLI is made of, wherever it runs (a command here, a cluster worker). */
export type SharedRuntimeOptions = Required<
  Pick<RuntimeOptions, 'model' | 'models' | 'agents' | 'tools' | 'toolSources' | 'limits' | 'approval'>
> &
  Pick<RuntimeOptions, 'hooks' | 'skills' | 'memory' | 'prices' | 'teamTools'>;

/**
 * The runtime options every entry point shares: the model, agents, Node tools, MCP tool sources,
 * limits, the approval policy with the permission rules, the hooks, skills and agent memory, and
 * the prices of cost estimates. `createCliRuntime` and `troupe worker`
 * (through `startWorker`) both build from it, so a task behaves the same wherever it runs.
 */
export function sharedRuntimeOptions(setup: CliRuntimeSetup): SharedRuntimeOptions {
  return {
    model: setup.model,
    models: setup.models,
    agents: setup.registry,
    tools: setup.tools,
    toolSources: setup.toolSources ?? [],
    limits: setup.limits,
    approval: setup.permissions ? runtimeApproval(setup.permissions, setup.approval) : setup.approval,
    ...(setup.hooks ? { hooks: setup.hooks } : {}),
    ...(setup.skills?.length ? { skills: setup.skills } : {}),
    ...(setup.memory ? { memory: setup.memory } : {}),
    ...(setup.prices ? { prices: setup.prices } : {}),
    ...(setup.teamTools ? { teamTools: true } : {}),
  };
}

/** Agent teams' tools for main agents, as Claude Code gates them: `CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS` set and not `0`/`false`. */
export function agentTeamsEnabled(env: CliContext['env']): boolean {
  const value = env.CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

/** The runtime of a CLI command: the one place the CLI calls `createRuntime`. */
export function createCliRuntime(setup: CliRuntimeSetup, options: CliRuntimeOptions = {}): Runtime {
  const { taskId } = options;
  let idCalls = 0;
  const runtime = createRuntime({
    ...sharedRuntimeOptions(setup),
    ...(setup.workspaces ? { workspaces: setup.workspaces } : {}),
    agents: options.agents ?? setup.registry,
    store: options.store ?? openStore(setup.storeDir),
    ...(options.inspect ? { inspect: options.inspect } : {}),
    ...(taskId ? { createId: () => (idCalls++ === 0 ? taskId : `${taskId}-${idCalls}`) } : {}),
  });
  const notice = setup.notice;
  if (notice)
    runtime.on('runtime.warning', (warning) => {
      // A missing skill was told at start (loadSkillSettings), naming the agent's file.
      if (
        warning.code === 'HOOK_FAILED' ||
        warning.code === 'HOOK_MESSAGE' ||
        warning.code === 'MEMORY_FAILED' ||
        warning.code === 'WORKSPACE_FAILED'
      )
        notice(warning.message);
    });
  return runtime;
}
