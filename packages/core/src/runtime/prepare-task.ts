import type { Clock } from '../clock.js';
import type { AgentDefinition } from '../definitions/types.js';
import { LimitError, TroupeError } from '../errors.js';
import type { Message } from '../model/types.js';
import type { TaskLimits, TaskSpec, TaskWorkspaceRecord, TeamLink } from '../persistence/types.js';
import type { Tool } from '../tools/define-tool.js';
import { createToolRegistry, type ToolRegistry } from '../tools/tool-registry.js';
import type { AgentCatalog } from './agent-catalog.js';
import { agentTaskFields, refusedAgent, taskToolsFor, toolsForMode } from './agent-task-fields.js';
import { cacheFork, type ForkSource } from './cache-fork.js';
import { forkContext } from './fork-context.js';
import type { PermissionModeOptions } from './permission-modes.js';
import type { RuntimeLimits } from './runtime-limits.js';
import { parseSpawnOptions, type SpawnOptions } from './spawn-options.js';
import type { TaskRun } from './task-run.js';

/** What turning spawn options into a task spec needs from the runtime. */
export interface TaskPlanner {
  readonly agents: AgentCatalog;
  readonly clock: Clock;
  readonly limits: RuntimeLimits;
  /** Ids of tasks started without a session key (their "always allow" is their own). */
  readonly keylessTasks: Set<string>;
  runOf(taskId: string): TaskRun | undefined;
  baseToolList(): readonly Tool[];
  mainTools(): Tool[];
  graceMsFor(timeoutMs: number): number;
  /** What an agent is given: skills and its own workspace. */
  readonly tooling: PlanTooling;
  /** What the host allows of agents' permission modes. */
  readonly permissionModes: PermissionModeOptions;
  /** Reports a `runtime.warning`. */
  warn(code: 'PERMISSION_MODE_CHANGED', message: string, taskId: string): void;
}

/**
 * What planning a task asks of what agents are given (the runtime's `TaskTooling`): the system
 * prompt section preloading the skills an agent lists, and the task's own workspace when its agent
 * asks for one (`isolation`; it throws when none can be had).
 */
export interface PlanTooling {
  skillsFor(definition: AgentDefinition): string;
  planWorkspace(definition: AgentDefinition, taskId: string): TaskWorkspaceRecord | undefined;
}

const DESCRIPTION_LENGTH = 60;

/** A short label from a prompt: its first line, cut at a word boundary. */
export function describePrompt(prompt: string): string {
  const line = prompt.trim().split('\n', 1)[0] ?? '';
  if (line.length <= DESCRIPTION_LENGTH) return line;
  const cut = line.slice(0, DESCRIPTION_LENGTH);
  const space = cut.lastIndexOf(' ');
  return `${space > 20 ? cut.slice(0, space) : cut}…`;
}

/**
 * A main agent's run (a session's message): its definition need not be registered, it stands at
 * depth 0 (so it has the task tools), and its limits default to a main agent's (`mainMaxTurns`
 * turns, no token budget, a day).
 */
export interface MainAgentRun {
  definition: AgentDefinition;
  /** The main tools its registry is cut from (a session's, frozen at its first run). Default: the runtime's. */
  mainTools?: readonly Tool[];
}

const MAIN_TIMEOUT_MS = 24 * 3_600_000;

/** Spawn options, plus what a follow-up, a team's spell or a fork's first run brings. */
type PlannedOptions = SpawnOptions & {
  history?: Message[];
  fork?: ForkSource;
  followUpOf?: string;
  team?: TeamLink;
};

/**
 * Turns spawn options into a task spec: validates them, finds the agent, checks the input against
 * its schema, resolves model and limits (capped by a parent's remaining budget and deadline), names
 * its tools, and builds the first messages (forking the parent's context if the agent asks for
 * it). Throws on any bad input; nothing is queued until this succeeds. A task's registry is cut
 * later, by its run (`TaskTooling.registryFor`). A session's main-agent runs are planned here too
 * (`main`), with the registry the run brings (cut from the session's main tools).
 */
export function prepareTask(runtime: TaskPlanner, raw: PlannedOptions, taskId: string): { spec: TaskSpec };
export function prepareTask(
  runtime: TaskPlanner,
  raw: PlannedOptions,
  taskId: string,
  main: MainAgentRun,
): { spec: TaskSpec; registry: ToolRegistry };
export function prepareTask(
  runtime: TaskPlanner,
  raw: PlannedOptions,
  taskId: string,
  main?: MainAgentRun,
): { spec: TaskSpec; registry?: ToolRegistry } {
  if (typeof raw !== 'object' || raw === null) parseSpawnOptions(raw);
  const { history, fork, followUpOf, team } = raw;
  let rest: SpawnOptions = raw;
  if ('history' in raw || 'fork' in raw || 'followUpOf' in raw || 'team' in raw) {
    const { history: _history, fork: _fork, followUpOf: _followUpOf, team: _team, ...others } = raw;
    rest = others;
  }
  const options = parseSpawnOptions(rest);
  const definition = main?.definition ?? runtime.agents.require(options.agent);
  if (!main) runtime.agents.checkInput(definition, options.input);
  const now = runtime.clock.now();

  const parent = options.parentTaskId ? runtime.runOf(options.parentTaskId) : undefined;
  if (options.parentTaskId && !parent)
    throw new TroupeError('TASK_NOT_FOUND', `Parent task "${options.parentTaskId}" is not running.`);
  // A main agent works in the host's workspace (its runs are not tasks with a spec of their own).
  const workspace =
    main || !definition.isolation ? undefined : runtime.tooling.planWorkspace(definition, taskId);
  const depth = parent ? parent.spec.depth + 1 : main ? 0 : 1;
  const refusal = refusedAgent(parent?.spec, definition.name, (name) => runtime.agents.get(name)?.name);
  if (refusal) throw new TroupeError('AGENT_NOT_ALLOWED', `Cannot start this task: ${refusal}`);
  if (depth > runtime.limits.maxDepth)
    throw new LimitError(
      `Nesting depth ${depth} exceeds limits.maxDepth (${runtime.limits.maxDepth}): a sub-agent cannot start another one unless maxDepth is raised.`,
    );

  const defaults: TaskLimits = main
    ? {
        maxTurns: runtime.limits.mainMaxTurns,
        tokenBudget: Number.MAX_SAFE_INTEGER,
        timeoutMs: MAIN_TIMEOUT_MS,
      }
    : runtime.limits;
  const limits: TaskLimits = {
    maxTurns: options.limits?.maxTurns ?? definition.maxTurns ?? defaults.maxTurns,
    tokenBudget: options.limits?.tokenBudget ?? definition.tokenBudget ?? defaults.tokenBudget,
    timeoutMs: options.limits?.timeoutMs ?? definition.timeoutMs ?? defaults.timeoutMs,
  };
  let deadlineCap: number | undefined;
  const parentContext = parent?.context;
  if (parent && parent.spec.depth >= 1 && parentContext) {
    // A child can never outlive or outspend its parent.
    const used = parentContext.usage.input + parentContext.usage.output;
    const left = parent.spec.limits.tokenBudget - used;
    if (left <= 0)
      throw new LimitError(`Parent task ${parent.spec.taskId} has no token budget left for a sub-agent.`);
    limits.tokenBudget = Math.min(limits.tokenBudget, left);
    deadlineCap = parentContext.deadline;
    const timeLeft = deadlineCap - now;
    if (timeLeft <= 0)
      throw new LimitError(`Parent task ${parent.spec.taskId} has no time left for a sub-agent.`);
    limits.timeoutMs = Math.min(limits.timeoutMs, timeLeft);
  }

  const model = runtime.agents.resolveModel(definition, options.model, parent?.spec.model);
  const canNest = depth < runtime.limits.maxDepth;
  const agentFields = agentTaskFields(definition, parent?.spec.permissionMode, runtime.permissionModes);
  const tools = toolsForMode(
    runtime.agents.toolNamesFor(definition, runtime.baseToolList(), runtime.mainTools(), canNest),
    agentFields.fields.permissionMode,
    [...runtime.baseToolList(), ...runtime.mainTools()],
  );
  const sessionKey = options.sessionKey ?? parent?.spec.sessionKey ?? 'default';
  if (options.sessionKey === undefined && !parent) runtime.keylessTasks.add(taskId);
  const spec: TaskSpec = {
    taskId,
    agent: definition.name,
    description: options.description?.trim() || describePrompt(options.prompt),
    prompt: options.prompt,
    sessionKey,
    depth,
    background: options.background ?? definition.background ?? false,
    announce: options.announce ?? false,
    model,
    system: systemPromptFor(
      `${definition.systemPrompt}${runtime.tooling.skillsFor(definition)}`,
      definition.outputSchema,
    ),
    tools,
    limits,
    graceMs: runtime.graceMsFor(limits.timeoutMs),
    ...agentFields.fields,
    messages: [],
    createdAt: now,
  };
  if (parent) spec.parentTaskId = parent.spec.taskId;
  if (followUpOf !== undefined) spec.followUpOf = followUpOf;
  if (team !== undefined) spec.team = team;
  if (deadlineCap !== undefined) spec.deadlineCap = deadlineCap;
  if (options.input !== undefined) spec.input = options.input;
  if (definition.outputSchema) spec.outputSchema = definition.outputSchema;
  if (workspace) spec.workspace = workspace;
  // A main agent's registry is cut for each run, from the main tools its session gives (their specs
  // frozen at the session's first run, so the cached prefix stays) or else the runtime's.
  const registry = main
    ? createToolRegistry(
        [
          ...runtime.baseToolList(),
          ...taskToolsFor(
            main.mainTools ?? runtime.mainTools(),
            spec.allowedAgents,
            (name) => runtime.agents.get(name)?.name,
          ),
        ],
        {
          allow: tools.length ? tools : ['\u0000none'],
        },
      )
    : undefined;

  const asked =
    options.input === undefined
      ? options.prompt
      : `${options.prompt}\n\nInput:\n${JSON.stringify(options.input, null, 2)}`;
  // Claude Code's `initialPrompt` is prepended to the prompt (not to a continued conversation).
  const prompt =
    definition.initialPrompt && !history?.length && !main ? `${definition.initialPrompt}\n\n${asked}` : asked;
  if (agentFields.warning) runtime.warn('PERMISSION_MODE_CHANGED', agentFields.warning, taskId);
  // A fork on the parent's model sends the parent's prefix unchanged (it reads the parent's cache);
  // on another model no cache is shared, and the normalised, shorter context is sent instead.
  const cached =
    definition.forkContext && fork && fork.model === model && !history?.length
      ? cacheFork(fork, { agent: definition.name, systemPrompt: spec.system, tools, prompt })
      : undefined;
  if (history?.length) spec.messages = [...history, { role: 'user', content: prompt }];
  else if (cached) {
    spec.system = cached.system;
    spec.requestTools = cached.tools;
    spec.messages = cached.messages;
  } else if (definition.forkContext && options.context?.length) {
    // Of the parent's context, the child keeps the tool calls it could make itself.
    const own =
      registry ??
      runtime.agents.registryForSpec(
        spec,
        runtime.baseToolList(),
        runtime.mainTools(),
        runtime.limits.maxDepth,
      );
    spec.messages = forkContext(options.context, (name) => own.has(name), prompt);
  } else spec.messages = [{ role: 'user', content: prompt }];
  return registry ? { spec, registry } : { spec };
}

/** The system prompt a task is given: the agent's, plus the output schema's instructions when it has one. */
export function systemPromptFor(prompt: string, outputSchema: object | undefined): string {
  if (!outputSchema) return prompt;
  return `${prompt}\n\nYour final answer must be a single JSON value (you may wrap it in a \`\`\`json block) that matches this JSON Schema:\n${JSON.stringify(outputSchema, null, 2)}`;
}
