import { type AnyActorRef, createActor, type InspectionEvent, type Observer } from 'xstate';
import { type Clock, systemClock } from '../clock.js';
import type { AgentDefinition } from '../definitions/types.js';
import { TroupeError, ValidationError } from '../errors.js';
import type { RuntimeEventName, RuntimeEvents } from '../events.js';
import type { RuntimeHooks } from '../hooks/hook-points.js';
import { sessionMachine } from '../machines/session-machine.js';
import { type SubagentMachine, subagentMachine } from '../machines/subagent-machine.js';
import { type QueuedTask, supervisorMachine } from '../machines/supervisor-machine.js';
import type { AgentMemory } from '../memory/agent-memory.js';
import { memoryScopeOf } from '../memory/agent-memory.js';
import type { Message, ModelAdapter } from '../model/types.js';
import { defaultGraceMs, machineInputFromSpec } from '../persistence/machine-input.js';
import { nullStore } from '../persistence/null-store.js';
import { describeThrown } from '../persistence/plain-json.js';
import { isFinalStatus } from '../persistence/statuses.js';
import { finalRecord, queuedRecord, resultDocument, statusRecord } from '../persistence/task-documents.js';
import { isTeamTask } from '../persistence/task-facts.js';
import type {
  StoreWarning,
  TaskQuery,
  TaskResult,
  TaskSpec,
  TaskStore,
  TaskWorkspaceRecord,
  TeamLink,
} from '../persistence/types.js';
import { preloadSkills, type Skill } from '../skills/skill.js';
import { createMemoryStore } from '../store/memory-store.js';
import type { CreateTeamOptions, TeamHandle } from '../teams/index.js';
import type { Tool } from '../tools/define-tool.js';
import {
  assertNoShadowedMainTool,
  assertUniqueToolNames,
  type ToolRegistry,
} from '../tools/tool-registry.js';
import type { ToolSource } from '../tools/tool-source.js';
import { DEFAULT_PRICES, type PriceTable } from '../usage/prices.js';
import type { UsageQuery, UsageReport } from '../usage/usage-report.js';
import { AgentCatalog, type AgentCatalogSource, type ModelConfig } from './agent-catalog.js';
import { announcement } from './announcement.js';
import { ApprovalCoordinator, type ApprovalPolicy } from './approvals.js';
import type { ForkSource } from './cache-fork.js';
import { createEffectActors } from './effects/effect-actors.js';
import { RuntimeEmitter } from './emitter.js';
import { type FollowUpOptions, followUp } from './follow-up.js';
import type { ForkOptions } from './fork-task.js';
import { LazyTeams } from './lazy-teams.js';
import { createMainTools } from './main-tools.js';
import type { PermissionModeOptions } from './permission-modes.js';
import { prepareTask } from './prepare-task.js';
import { isStoreFailure, planRestore, restoredLogic } from './restore-plan.js';
import type { RunHost } from './run-host.js';
import type { RuntimeLimits } from './runtime-limits.js';
import type { SessionActor, SessionOptions } from './session.js';
import { Session } from './session.js';
import { withToolSources } from './source-registry.js';
import type { SpawnOptions } from './spawn-options.js';
import { startContextOf } from './start-context.js';
import type { SubagentRef } from './subagent-snapshot.js';
import type { TaskClient, TaskHistoryPage } from './task-client.js';
import type { TaskHandle } from './task-handle.js';
import { createTaskId } from './task-id.js';
import { storedTaskInfo, type TaskInfo } from './task-info.js';
import { cancelledBeforeStart, corruptBeforeRestore } from './task-results.js';
import { TaskRun } from './task-run.js';
import { type TaskEntry, type TaskListFilter, TaskTable } from './task-table.js';
import { type TaskWorkspaces, WorkspaceKeeper } from './task-workspaces.js';

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

const DEFAULT_LIMITS: RuntimeLimits = {
  maxConcurrent: 5,
  maxTurns: 10,
  tokenBudget: 100_000,
  timeoutMs: 300_000,
  maxDepth: 3,
  mainMaxTurns: 40,
};

/**
 * The troupe runtime: the facade a host programs against. See the README and DESIGN.md "The
 * contract". Bad input (unknown agent, empty prompt, invalid options, input failing an agent's
 * input schema) throws synchronously; task failures are data on the result.
 */
export class Runtime implements TaskClient {
  readonly limits: RuntimeLimits;
  readonly agents: AgentCatalog;
  readonly store: TaskStore;
  readonly clock: Clock;
  private readonly options: RuntimeOptions;
  private readonly emitter = new RuntimeEmitter();
  private readonly approvals: ApprovalCoordinator;
  private readonly table = new TaskTable();
  private readonly supervisor;
  private readonly host: RunHost;
  /** The subagent machine with the effects performed for real. */
  private readonly subagent: SubagentMachine;
  /** Each live subagent actor's run, for its effects. */
  private readonly runs = new WeakMap<AnyActorRef, TaskRun>();
  private readonly baseTools: readonly Tool[];
  private readonly mainToolList: Tool[];
  private readonly createId: () => string;
  private readonly workspaceKeeper: WorkspaceKeeper;
  private readonly teams: LazyTeams;
  private stopped = false;
  private readonly skills: ReadonlyMap<string, Skill>;
  /** Agents whose missing skills were reported (once each). */
  private readonly skillsReported = new Set<string>();

  constructor(options: RuntimeOptions) {
    if (!options || typeof options.model?.generate !== 'function') {
      throw new TroupeError(
        'MODEL_NOT_CONFIGURED',
        'createRuntime needs a model: pass { model } with a ModelAdapter (e.g. scriptedModel from @troupe/core/testing, or createAnthropicModel from @troupe/anthropic).',
      );
    }
    this.options = options;
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    for (const [key, value] of Object.entries(this.limits)) {
      if (!Number.isInteger(value) || value < 1)
        throw new TroupeError(
          'VALIDATION_FAILED',
          `limits.${key} must be a positive integer, got ${JSON.stringify(value)}.`,
        );
    }
    this.clock = options.clock ?? systemClock;
    this.store = options.store ?? createMemoryStore();
    this.createId = options.createId ?? createTaskId;
    this.baseTools = options.tools ?? [];
    assertUniqueToolNames(this.baseTools);
    this.agents = new AgentCatalog(options.agents ?? [], options.models ?? {});
    this.approvals = new ApprovalCoordinator(options.approval ?? 'ask', this.emitter, (taskId, sessionKey) =>
      // A task spawned without a session key has no session: "always allow" covers that task only.
      this.keylessTasks.has(taskId) ? `task:${taskId}` : sessionKey,
    );
    this.workspaceKeeper = new WorkspaceKeeper(options.workspaces, (taskId, message) =>
      this.emitter.emit('runtime.warning', { code: 'WORKSPACE_FAILED', message, taskId }),
    );
    this.mainToolList = createMainTools(this);
    this.teams = new LazyTeams(this, () => this.createId());
    assertNoShadowedMainTool(this.baseTools, this.mainToolList);
    this.host = {
      clock: this.clock,
      model: options.model,
      store: this.store,
      emitter: this.emitter,
      maxTokens: options.maxTokens ?? 8192,
      ...(options.hooks ? { hooks: options.hooks } : {}),
      dispositionFor: (spec, tool, access) =>
        this.teams.loaded?.disposition(spec, access) ?? this.approvals.dispositionFor(spec, tool, access),
      requestApproval: (request, signal, asked) => this.approvals.request(request, signal, asked),
      recordStatus: (taskId, event) => this.record(taskId, event),
      reportAutomaticDecision: (request, decision, reason) =>
        this.approvals.reportAutomatic(request, decision, reason),
      checkOutput: (spec, text) => this.agents.checkOutput(spec, text),
      finished: (task, result) => this.settle(task.spec, result, this.clock.now()),
    };
    const startContext = startContextOf(this.agents, options.hooks, options.memory, (code, message, taskId) =>
      this.emitter.emit('runtime.warning', { code, message, taskId }),
    );
    if (startContext) this.host.startContext = startContext;
    this.skills = new Map((options.skills ?? []).map((skill) => [skill.name, skill]));
    this.subagent = subagentMachine.provide({
      actors: createEffectActors((actor) => (actor ? this.runs.get(actor) : undefined)),
    });
    // The supervisor is the root of the runtime's one actor system: tasks and sessions (with their
    // main-agent runs) are its descendants, so one `inspect` observer sees every actor.
    const machine = supervisorMachine.provide({
      actions: {
        taskStarted: ({ system }, { taskId }) => this.started(taskId, system.get(taskId)),
        taskDropped: (_, { taskId, reason }) => this.dropped(taskId, reason),
        cancelRunning: (_, { taskId, reason }) => this.table.get(taskId)?.run?.cancel(reason),
      },
      actors: {
        subagent: this.subagent,
        session: sessionMachine.provide({
          actors: { mainAgent: this.subagent },
          actions: {
            runStarted: ({ system, self }, { runId }) => {
              const actor: SubagentRef | undefined = system.get(`${self.id}/${runId}`);
              if (actor) this.sessions.get(self.id)?.runStarted(runId, actor);
            },
          },
        }),
      },
    });
    this.supervisor = createActor(machine, {
      id: 'supervisor',
      systemId: 'supervisor',
      input: { maxConcurrent: this.limits.maxConcurrent },
      ...(options.inspect ? { inspect: options.inspect } : {}),
    });
    this.supervisor.start();
  }

  /** Starts a sub-agent task (queued if `maxConcurrent` are running). Throws on bad input. */
  spawn(options: SpawnOptions): TaskHandle {
    return this.spawnInternal(options);
  }

  /**
   * Continues a finished sub-agent's conversation: `message` starts a new task of the same agent
   * and session from the stored conversation of `target` (a task id, or an agent name when one
   * finished task of that agent is in the session), linked to it by `followUpOf`. Works after a
   * restart. Throws `TASK_NOT_FOUND`, `TASK_AMBIGUOUS`, `TASK_RUNNING` (use `steer`), or what
   * `spawn` throws. See `docs/decisions/2026-11-26-follow-up-as-linked-task.md`.
   */
  followUp(target: string, message: string, options: FollowUpOptions = {}): Promise<TaskHandle> {
    this.assertRunning();
    return followUp(this, target, message, options);
  }

  /** @internal The status of a task this runtime runs, or undefined. */
  liveStatus(taskId: string): string | undefined {
    const info = this.table.info(taskId, this.clock.now());
    return info && !isFinalStatus(info.status) ? info.status : undefined;
  }

  /**
   * Starts an agent team: a lead and named teammates, each a long-lived member whose working spells
   * are tasks of this runtime, sharing a mailbox (`SendMessage`) and a task list (`TaskCreate`,
   * `TaskUpdate`, `TaskList`, `TaskGet`). The lead starts on `prompt`; the team ends when no member
   * works and no message waits (its output is the lead's last answer), at its message limit or
   * token budget, or when cancelled. Journaled: `restore()` brings it back. Rejects on bad options.
   * The teams' code is loaded at the first team. See `docs/decisions/2026-11-26-agent-teams.md`.
   */
  async createTeam(options: CreateTeamOptions): Promise<TeamHandle> {
    this.assertRunning();
    const teams = await this.teams.load();
    this.assertRunning();
    return teams.create(options);
  }

  /** A team this runtime created or restored, by id. */
  team(teamId: string): TeamHandle | undefined {
    return this.teams.loaded?.get(teamId);
  }

  /** @internal `spawn` that may also continue an earlier conversation (`task` with `resume`), or be a team member's spell. */
  spawnInternal(
    options: SpawnOptions & {
      history?: Message[];
      fork?: ForkSource;
      followUpOf?: string;
      team?: TeamLink;
      taskId?: string;
    },
  ): TaskHandle {
    this.assertRunning();
    // A team names its members' spells itself (the id is journaled before the spell starts).
    if (typeof options === 'object' && options !== null && options.taskId !== undefined) {
      const { taskId, ...rest } = options;
      const { spec, registry } = prepareTask(this, rest, taskId);
      return this.submit(spec, registry);
    }
    const { spec, registry } = prepareTask(this, options, this.createId());
    return this.submit(spec, registry);
  }

  /**
   * @internal Runs a task whose spec another process prepared and stored as queued (a cluster
   * client): through the supervisor's queue, like a spawn, without recording it again. Throws
   * `VALIDATION_FAILED` if this runtime already holds the task. Reach it with `storedTaskRunnerOf`.
   */
  runStored(spec: TaskSpec): TaskHandle {
    this.assertRunning();
    if (this.table.get(spec.taskId))
      throw new TroupeError(
        'VALIDATION_FAILED',
        `runStored: task ${spec.taskId} is already in this runtime.`,
      );
    const registry = this.agents.registryForSpec(
      spec,
      this.baseTools,
      this.mainToolList,
      this.limits.maxDepth,
    );
    return this.submit(spec, registry, undefined, true);
  }

  /**
   * Starts a new task (new id) from a step of a stored task: the original's journal up to
   * `atStep` is copied (its first entry and the spec carry `forkedFrom`), rehearsed through the
   * pure machine, and the fork runs live from the state reached, its effects derived from that state
   * as a restore does (a model call issued, a read tool run, a write that had started answered
   * "interrupted"). `agent` edits its system prompt, tools or model; `editMessage` the text of the
   * last assistant message at that step. The original and its documents are not touched. Rejects
   * with `TASK_NOT_FOUND`, or a `ValidationError` for a step out of range or one the task had ended by.
   */
  async fork(taskId: string, options: ForkOptions): Promise<TaskHandle> {
    this.assertRunning();
    // Loaded when first used: a runtime that never forks (a browser app's first page) does not carry it.
    const { planFork, recordFork } = await import('./fork-task.js');
    const plan = await planFork(this, taskId, options, this.createId());
    this.assertRunning();
    const { spec } = plan;
    const registry = this.agents.registryForSpec(
      spec,
      this.baseTools,
      this.mainToolList,
      this.limits.maxDepth,
    );
    recordFork(this.store, plan);
    const logic = restoredLogic(this.subagent, plan.snapshot);
    return this.submit(spec, registry, { logic, journalLength: plan.entries.length, forked: true }, true);
  }

  /** A task's current information, or undefined. */
  get(id: string): TaskInfo | undefined {
    return this.table.info(id, this.clock.now());
  }

  /**
   * A task's result. For a task this runtime runs, resolves when it ends; for a task that ended
   * before (another process, before a restart), loads it from the store. Undefined when neither
   * knows the task, or the store's task is unfinished and not restored here. Never rejects for a
   * task failure; rejects with a `PersistenceError` when the stored result cannot be read.
   */
  async result(id: string): Promise<TaskResult | undefined> {
    const entry = this.table.get(id);
    if (entry) return entry.promise;
    const stored = await this.store.getTask(id);
    if (!stored || !isFinalStatus(stored.status)) return undefined;
    return stored.result ?? (await this.store.loadResult(id));
  }

  /**
   * A task's information: from this runtime when it runs the task, otherwise from the store (a
   * task that ended before a restart, or that another process runs). Undefined when neither
   * knows it.
   */
  async find(id: string): Promise<TaskInfo | undefined> {
    const live = this.get(id);
    if (live) return live;
    const stored = await this.store.getTask(id);
    return stored ? storedTaskInfo(stored) : undefined;
  }

  /**
   * Every task the store knows, this runtime's and those from before a restart, newest first,
   * filtered and paged (`limit`, then `cursor` from the previous page). Tasks this runtime runs
   * show their live progress. Served by the store's index: the stored tasks' conversations and
   * documents are not loaded.
   */
  async history(query: TaskQuery = {}): Promise<TaskHistoryPage> {
    await this.store.flush();
    const page = await this.store.listTasks(query);
    const tasks = page.tasks.map((summary) => this.get(summary.taskId) ?? storedTaskInfo(summary));
    return page.cursor === undefined ? { tasks } : { tasks, cursor: page.cursor };
  }

  /** The price table cost estimates use (`prices` of the options, else list prices). */
  get prices(): PriceTable {
    return this.options.prices ?? DEFAULT_PRICES;
  }

  /**
   * The usage ledger: tokens (input, output, cache read, cache write) and estimated cost of the
   * ended tasks matching `query` (a task, a session, an agent, a model), in total and by agent,
   * model and session, each task's usage priced under the model(s) that answered. Read from the
   * store, so it covers tasks of earlier runs of the process and of other processes (cluster
   * workers). Sessions store each ended main-agent run as a task of depth 0, counted in `main` too.
   */
  async usage(query: UsageQuery = {}): Promise<UsageReport> {
    // Loaded when first asked for: a browser app that shows no ledger at start does not load it then.
    const { usageReport } = await import('../usage/usage-report.js');
    return usageReport(this, query, this.prices);
  }

  /** Tasks of this runtime (since it was created or restored), newest first, filtered. */
  list(filter: TaskListFilter = {}): TaskInfo[] {
    return this.table.list(filter, this.clock.now());
  }

  /**
   * Sends a message to a queued or running task, which sees it as a user message at its next turn
   * boundary: with its next tool results, or, if it answers meanwhile, as a new turn (within its
   * turn limit). The message is journaled, so restore and replay reproduce it. Throws a
   * `ValidationError` for an empty message, `TroupeError` `TASK_NOT_FOUND` for a task this runtime
   * does not run, and `TASK_ENDED` for a task that has ended.
   */
  steer(id: string, text: string): void {
    if (typeof text !== 'string' || text.trim() === '')
      throw new ValidationError('steer: the message must be a non-empty string.', ['text']);
    const entry = this.table.get(id);
    if (!entry) throw new TroupeError('TASK_NOT_FOUND', `steer: no task "${id}" runs in this runtime.`);
    if (entry.result)
      throw new TroupeError(
        'TASK_ENDED',
        `steer: task ${id} has already ended (${entry.result.status}); start a new task instead.`,
      );
    if (entry.run) entry.run.steer(text);
    else {
      entry.steering ??= [];
      entry.steering.push(text);
    }
  }

  /** Cancels a queued or running task. Returns false if it is unknown or already ended. */
  cancel(id: string, reason?: string): boolean {
    const entry = this.table.get(id);
    if (!entry || entry.result) return false;
    this.supervisor.send(
      reason
        ? { type: 'task.cancelRequested', taskId: id, reason }
        : { type: 'task.cancelRequested', taskId: id },
    );
    return true;
  }

  /**
   * Forgets an ended task: it leaves `get` and `list`, and a later `restore()` may bring the
   * store's copy back. False if the task is unknown or has not ended. (A cluster worker forgets a
   * task it gave up to another worker: should the task come back to it, it restores it.)
   */
  forget(id: string): boolean {
    return this.table.get(id)?.result ? this.table.remove(id) : false;
  }

  /** Cancels every queued and running task of a session. Returns how many. */
  cancelSession(sessionKey: string, reason?: string): number {
    this.teams.loaded?.cancelSession(sessionKey);
    const count = this.table.activeInSession(sessionKey);
    this.supervisor.send(
      reason
        ? { type: 'session.cancelRequested', sessionKey, reason }
        : { type: 'session.cancelRequested', sessionKey },
    );
    return count;
  }

  /** Approves a pending tool call. `always` remembers the tool for the task's session. */
  approve(approvalId: string, options: { always?: boolean } = {}): void {
    this.approvals.resolve(approvalId, 'approve', options);
  }

  /** Denies a pending tool call; the model gets the reason as an error tool result. */
  deny(approvalId: string, reason?: string): void {
    this.approvals.resolve(approvalId, 'deny', reason ? { reason } : {});
  }

  /** Approvals waiting for the host. */
  pendingApprovals() {
    return this.approvals.list();
  }

  /** Subscribes to an event; returns an unsubscribe function. */
  on<TName extends RuntimeEventName>(
    name: TName,
    listener: (event: RuntimeEvents[TName]) => void,
  ): () => void {
    return this.emitter.on(name, listener);
  }

  /** The tools a main agent gets: task, task_status, task_list, cancel_task, spawn. */
  mainTools(): Tool[] {
    return [...this.mainToolList];
  }

  /** A main-agent session: a conversation whose agent can delegate. */
  createSession(options: SessionOptions = {}): Session {
    this.assertRunning();
    const session = new Session(this, this.sessionHost(), options);
    this.sessions.set(session.actorId, session);
    return session;
  }

  /**
   * Brings back unfinished tasks from the store: queued tasks are queued again; running ones come
   * back from their snapshot (or their journal if the snapshot is missing or corrupt) with their
   * deadline re-armed, and carry on. Tasks this runtime already knows are skipped. With
   * `taskIds`, only those tasks are brought back (the others stay in the store as they are).
   * A store that can lock (`TaskStore.lockForRestore`) is locked first: a second runtime restoring
   * the same store rejects with `PERSISTENCE_LOCKED` naming the holder, and resumes nothing; tasks
   * the store says another live runtime runs are left to it (a `PERSISTENCE_TASK_OWNED` warning).
   * Those tasks are watched: every `ownerCheckMs` (default 2,000; 0 = never) the store is asked
   * again, and each is resumed here once its runtime is gone, without another call; `shutdown()`
   * stops the watch. Calls made while one runs share it: the same `taskIds` (or none) get its
   * promise; other `taskIds` run after it. A task whose stored state cannot be read fails alone
   * (`PERSISTENCE_CORRUPT`, with a `runtime.warning`); the others restore.
   */
  restore(
    options: { taskIds?: readonly string[]; ownerCheckMs?: number } = {},
  ): Promise<{ restored: string[]; warnings: StoreWarning[] }> {
    if (this.stopped) return Promise.reject(this.stoppedError());
    const every = options.ownerCheckMs;
    if (every !== undefined && !(Number.isFinite(every) && every >= 0))
      return Promise.reject(
        new ValidationError(`restore: ownerCheckMs must be a number of ms ≥ 0; got ${String(every)}.`, [
          'ownerCheckMs',
        ]),
      );
    if (every !== undefined) this.ownerCheckMs = every;
    const key = options.taskIds ? JSON.stringify([...options.taskIds].sort()) : '*';
    const running = this.restoring;
    if (running?.key === key) return running.promise;
    const promise = (running ? running.promise.catch(() => undefined) : Promise.resolve()).then(() =>
      this.restoreOnce(options),
    );
    const current = { key, promise };
    this.restoring = current;
    const done = () => {
      if (this.restoring === current) this.restoring = undefined;
    };
    promise.then(done, done);
    return promise;
  }

  /** Unfinished tasks the store said another live runtime runs: resumed here once it is gone. */
  private readonly ownedElsewhere = new Set<string>();
  private ownerCheckMs = 2_000;
  private ownerCheck: { handle: unknown } | undefined;

  /** Asks the store again about {@link ownedElsewhere} in `ownerCheckMs` (an unreferenced timer). */
  private watchOwners(): void {
    if (this.stopped || this.ownerCheck || this.ownedElsewhere.size === 0 || this.ownerCheckMs === 0) return;
    const handle = this.clock.setTimeout(() => {
      this.ownerCheck = undefined;
      if (this.stopped || this.ownedElsewhere.size === 0) return;
      const watched = [...this.ownedElsewhere];
      // A store that can say cheaply who still runs what is asked first; the restore that follows
      // checks again under the lock.
      const check: Promise<unknown> = this.store.tasksRunElsewhere
        ? this.store.tasksRunElsewhere(watched).then((still) => {
            const running = new Set(still);
            const gone = watched.filter((id) => !running.has(id));
            if (gone.length) return this.restore({ taskIds: gone });
            this.watchOwners();
            return undefined;
          })
        : this.restore({ taskIds: watched });
      check.catch((error: unknown) => {
        if (this.stopped) return;
        this.emitter.emit('runtime.warning', {
          code: 'PERSISTENCE_FAILED',
          message: `Could not check whether the runtimes running tasks ${[...this.ownedElsewhere].join(', ')} are gone: ${describeThrown(error)}; checking again in ${this.ownerCheckMs} ms.`,
        });
        this.watchOwners();
      });
    }, this.ownerCheckMs);
    // A host that is otherwise done exits: the watch alone never keeps the process up.
    (handle as { unref?: () => void } | undefined)?.unref?.();
    this.ownerCheck = { handle };
  }

  /** The restore run in progress, shared by calls for the same task ids. */
  private restoring:
    | { key: string; promise: Promise<{ restored: string[]; warnings: StoreWarning[] }> }
    | undefined;

  private async restoreOnce(options: {
    taskIds?: readonly string[];
  }): Promise<{ restored: string[]; warnings: StoreWarning[] }> {
    this.assertRunning();
    const locked = await this.store.lockForRestore?.();
    const { tasks, warnings } = await this.store.loadTasks();
    if (locked) warnings.unshift(...locked.warnings);
    const restored: string[] = [];
    const only = options.taskIds ? new Set(options.taskIds) : undefined;
    const elsewhere = new Set(locked?.runElsewhere ?? []);
    // Teams first: their restored spells find them when they call a team tool.
    const teams = !only && tasks.some((task) => task.spec.team) ? await this.teams.load() : undefined;
    await teams?.load(tasks);
    const pending = tasks
      .filter(
        (task) =>
          !task.result &&
          !isTeamTask(task.spec) &&
          !isFinalStatus(task.status) &&
          !elsewhere.has(task.spec.taskId) &&
          (!only || only.has(task.spec.taskId)),
      )
      .sort((a, b) => a.spec.createdAt - b.spec.createdAt);
    // Who runs what, as the store says now: the tasks left to another live runtime are watched.
    if (only) for (const id of only) this.ownedElsewhere.delete(id);
    else this.ownedElsewhere.clear();
    for (const task of tasks) {
      const id = task.spec.taskId;
      if (elsewhere.has(id) && (!only || only.has(id)) && !task.result && !isFinalStatus(task.status))
        this.ownedElsewhere.add(id);
    }
    this.watchOwners();
    for (const task of pending) {
      const spec = task.spec;
      if (this.table.get(spec.taskId)) continue;
      const registry = this.agents.registryForSpec(
        spec,
        this.baseTools,
        this.mainToolList,
        this.limits.maxDepth,
      );
      const warn = (code: 'PERSISTENCE_CORRUPT' | 'TASK_RESTARTED', message: string) =>
        this.emitter.emit('runtime.warning', { code, message, taskId: spec.taskId });
      const plan = await planRestore(this.store, task, {
        input: machineInputFromSpec(spec),
        warnings,
        warn,
      }).catch((error: unknown) => {
        if (isStoreFailure(error)) return { unavailable: describeThrown(error) };
        // A store that throws for one task's documents: that task alone fails.
        const message = `Task ${spec.taskId} cannot be restored: ${describeThrown(error)}.`;
        warnings.push({ code: 'PERSISTENCE_CORRUPT', message });
        warn('PERSISTENCE_CORRUPT', message);
        return { corrupt: message };
      });
      // Shut down while the store was read: nothing more is started.
      if (this.stopped) break;
      if (this.table.get(spec.taskId)) continue;
      if ('unavailable' in plan) {
        // The store failed, not the task: it stays unfinished, for the next restore().
        const message = `Task ${spec.taskId} was not restored: the store could not be read (${plan.unavailable}). It is left unfinished; call restore() again once the store is back.`;
        warnings.push({ code: 'PERSISTENCE_FAILED', message });
        this.emitter.emit('runtime.warning', { code: 'PERSISTENCE_FAILED', message, taskId: spec.taskId });
        continue;
      }
      restored.push(spec.taskId);
      if ('corrupt' in plan) {
        // This task alone fails; the others restore.
        this.table.add(spec, registry);
        this.settle(spec, corruptBeforeRestore(spec, plan.corrupt), this.clock.now());
        continue;
      }
      const logic = plan.snapshot === undefined ? undefined : restoredLogic(this.subagent, plan.snapshot);
      this.submit(spec, registry, { logic, journalLength: plan.journalLength });
    }
    if (teams && !this.stopped) await teams.resume(tasks);
    return { restored, warnings };
  }

  /**
   * Stops the runtime. By default every queued and running task is cancelled (results resolve as
   * `cancelled`); with `{ keepTasks: true }` they are left in the store, unfinished, for a later
   * `restore()`. Always flushes the store.
   */
  async shutdown(options: { keepTasks?: boolean } = {}): Promise<void> {
    if (this.stopped) return;
    // Sessions' main-agent runs are not persisted: they end with the runtime.
    for (const session of [...this.sessions.values()]) {
      session.interrupt();
      session.close();
    }
    this.sessions.clear();
    this.teams.loaded?.shutdown(options.keepTasks === true);
    if (!options.keepTasks) {
      for (const info of this.table.list({ active: true }, this.clock.now()))
        this.cancel(info.id, 'The runtime shut down.');
    }
    this.stopped = true;
    if (this.ownerCheck) this.clock.clearTimeout(this.ownerCheck.handle);
    this.ownerCheck = undefined;
    this.ownedElsewhere.clear();
    this.table.detachAll();
    this.supervisor.stop();
    // Tasks cancelled above whose workspace is being closed record their result before the store closes.
    await this.workspaceKeeper.idle();
    await this.store.flush();
    await this.store.close?.();
    this.emitter.removeAll();
  }

  /** @internal Used by main tools and sessions. */
  runOf(taskId: string): TaskRun | undefined {
    return this.table.get(taskId)?.run ?? this.sessionRuns.get(taskId);
  }

  /** The main agents' runs in progress, by their task id. */
  private readonly sessionRuns = new Map<string, TaskRun>();
  /** @internal Tasks spawned without a session key (and no parent to inherit one from). */
  readonly keylessTasks = new Set<string>();

  /** Open sessions, by their actor's id. */
  private readonly sessions = new Map<string, Session>();

  /** @internal Used by sessions. */
  openSession(actorId: string, sessionKey: string, conversation: readonly Message[]): SessionActor {
    this.supervisor.send({ type: 'session.opened', actorId, sessionKey, conversation });
    const actor: SessionActor | undefined = this.supervisor.system.get(actorId);
    if (!actor) throw new TroupeError('RUNTIME_STOPPED', `Session ${actorId} could not be opened.`);
    return actor;
  }

  /** @internal Used by sessions. */
  closeSession(actorId: string): void {
    this.sessions.delete(actorId);
    this.supervisor.send({ type: 'session.closed', actorId });
  }

  /** @internal Used by sessions: a main-agent run follows its actor (a child of the session's) and starts. */
  startRun(run: TaskRun, actor: SubagentRef): void {
    this.sessionRuns.set(run.spec.taskId, run);
    this.attach(run, actor);
    run.begin();
  }

  /** A run follows its actor, whose effects find it here. */
  private attach(run: TaskRun, actor: SubagentRef): void {
    this.runs.set(actor, run);
    run.attach(actor);
  }

  /** @internal */
  baseToolList(): readonly Tool[] {
    return this.baseTools;
  }

  /** @internal */
  emit<TName extends RuntimeEventName>(name: TName, event: RuntimeEvents[TName]): void {
    this.emitter.emit(name, event);
  }

  /**
   * @internal A task's registry plus what the tool sources give its agent when it starts, and the
   * tools over its agent memory (whatever its allow-list) when it has one.
   */
  withToolSources(registry: ToolRegistry, spec: TaskSpec, definition: AgentDefinition): ToolRegistry {
    const sources = this.options.toolSources ?? [];
    const memory = this.options.memory;
    const scope = memory && spec.depth >= 1 ? memoryScopeOf(definition) : undefined;
    const unrestricted: ToolSource[] =
      memory && scope
        ? [
            {
              name: `${scope} memory of ${spec.agent}`,
              tools: async (request) => ({ tools: await memory.tools({ ...request, scope }) }),
            },
          ]
        : [];
    if (!sources.length && !unrestricted.length) return registry;
    const request = {
      taskId: spec.taskId,
      agent: spec.agent,
      selection: this.agents.selectionFor(definition),
    };
    return withToolSources(
      registry,
      sources,
      request,
      (message) =>
        this.emitter.emit('runtime.warning', { code: 'TOOL_SOURCE_FAILED', message, taskId: spec.taskId }),
      unrestricted,
    );
  }

  /**
   * @internal The system prompt section preloading the skills `definition` lists; a listed skill
   * the runtime was not given is a `SKILL_NOT_FOUND` warning naming the agent's file (once per agent).
   */
  skillsFor(definition: AgentDefinition): string {
    const { text, missing } = preloadSkills(definition, this.skills);
    if (missing.length && !this.skillsReported.has(definition.name)) {
      this.skillsReported.add(definition.name);
      const where = definition.path ? ` (${definition.path})` : '';
      this.emitter.emit('runtime.warning', {
        code: 'SKILL_NOT_FOUND',
        message: `Agent "${definition.name}"${where} lists skill${missing.length === 1 ? '' : 's'} ${missing.map((name) => `"${name}"`).join(', ')} that the runtime was not given (createRuntime({ skills })); it runs without ${missing.length === 1 ? 'it' : 'them'}.`,
      });
    }
    return text;
  }

  /** @internal What the host allows of agents' permission modes. */
  get permissionModes(): PermissionModeOptions {
    return this.options.permissionModes ?? {};
  }

  /** @internal Reports a `runtime.warning` about a task. */
  warn(code: 'PERMISSION_MODE_CHANGED', message: string, taskId: string): void {
    this.emitter.emit('runtime.warning', { code, message, taskId });
  }

  /** @internal */
  planWorkspace(definition: AgentDefinition, taskId: string): TaskWorkspaceRecord | undefined {
    return this.workspaceKeeper.plan(definition, taskId);
  }

  /** @internal */
  graceMsFor(timeoutMs: number): number {
    return this.options.graceMs ?? defaultGraceMs(timeoutMs);
  }

  private sessionHost(): RunHost {
    // A session's main agent is not a supervised task: nothing of it goes to the task store.
    return {
      ...this.host,
      store: nullStore,
      recordStatus: () => {},
      // Background work outlives the 5-minute cache: the main agent's prefix must still be there
      // for the announcement turn when it ends (decision 2026-11-26-cache-lifetime-per-conversation).
      cacheLifetimeFor: (spec) =>
        this.table
          .list({ sessionKey: spec.sessionKey, active: true }, this.clock.now())
          .some((info) => info.background)
          ? '1h'
          : undefined,
      finished: (task) => {
        this.sessionRuns.delete(task.spec.taskId);
      },
    };
  }

  private assertRunning(): void {
    if (this.stopped) throw this.stoppedError();
  }

  private stoppedError(): TroupeError {
    return new TroupeError('RUNTIME_STOPPED', 'The runtime has been shut down; create a new one.');
  }

  private submit(
    spec: TaskSpec,
    registry: ReturnType<AgentCatalog['registryForSpec']>,
    restore?: TaskEntry['restore'],
    recorded = restore !== undefined,
  ): TaskHandle {
    const entry = this.table.add(spec, registry, restore);
    if (!recorded) this.store.appendStatus(queuedRecord(spec));
    const task: QueuedTask = {
      taskId: spec.taskId,
      sessionKey: spec.sessionKey,
      input: machineInputFromSpec(spec),
    };
    if (spec.parentTaskId) task.parentTaskId = spec.parentTaskId;
    if (restore?.logic) task.logic = restore.logic;
    if (this.emitter.listening('task.queued')) {
      const { running, queue, maxConcurrent } = this.supervisor.getSnapshot().context;
      const position = running.length < maxConcurrent ? 0 : queue.size + 1;
      this.emitter.emit(
        'task.queued',
        Object.assign(this.table.eventBase(spec, this.clock.now()), { position }),
      );
    }
    this.supervisor.send({ type: 'task.submitted', task, system: spec.system });
    return { id: spec.taskId, result: entry.promise };
  }

  private started(taskId: string, ref: SubagentRef | undefined): void {
    const entry = this.table.get(taskId);
    if (!entry || !ref) return;
    // With no tool sources and no agent memory, the registry cut when the task was planned is the one it runs with.
    const definition =
      this.options.toolSources?.length || this.options.memory ? this.agents.get(entry.spec.agent) : undefined;
    const own = this.workspaceKeeper.registryFor(
      definition ? this.withToolSources(entry.registry, entry.spec, definition) : entry.registry,
      entry.spec,
    );
    const registry = this.teams.loaded?.registryFor(own, entry.spec) ?? own;
    const run = new TaskRun(this.host, entry.spec, registry, entry.restore?.journalLength ?? 0);
    entry.run = run;
    this.record(taskId, entry.restore && !entry.restore.forked ? 'task.resumed' : 'task.started');
    entry.restore = undefined;
    this.attach(run, ref);
    for (const text of entry.steering ?? []) run.steer(text);
    delete entry.steering;
    run.begin();
    if (this.emitter.listening('task.started') && !run.ended) this.emitter.emit('task.started', run.base());
  }

  private dropped(taskId: string, reason: string | undefined): void {
    const entry = this.table.get(taskId);
    if (!entry || entry.result) return;
    const result = cancelledBeforeStart(entry.spec, reason ?? 'The task was cancelled before it started.');
    const at = this.clock.now();
    this.settle(entry.spec, result, at);
  }

  private settle(spec: TaskSpec, result: TaskResult, at: number): void {
    const entry = this.table.get(spec.taskId);
    if (!entry || entry.result) return;
    // A task's own workspace is closed first: its result names what became of it.
    this.workspaceKeeper.close(spec, result, (final) => this.settleNow(spec, final, at));
  }

  private settleNow(spec: TaskSpec, result: TaskResult, at: number): void {
    const entry = this.table.get(spec.taskId);
    if (!entry || entry.result) return;
    this.persist(spec.taskId, 'save the result', () => this.store.saveResult(resultDocument(result)));
    this.persist(spec.taskId, `record task.${result.status}`, () =>
      this.store.appendStatus(finalRecord(result, at)),
    );
    const base = entry.run ? entry.run.base() : this.table.eventBase(spec, at);
    this.table.settle(spec.taskId, result, at);
    const name = `task.${result.status}` as const;
    if (this.emitter.listening(name)) this.emitter.emit(name, Object.assign(base, { result }));
    if (spec.announce) {
      this.emitter.emit(
        'task.announced',
        Object.assign({}, base, { result, message: announcement(spec, result) }),
      );
    }
  }

  private record(taskId: string, event: 'task.started' | 'task.resumed' | 'task.awaitingApproval'): void {
    this.persist(taskId, `record ${event}`, () =>
      this.store.appendStatus(statusRecord(taskId, event, this.clock.now())),
    );
  }

  /** A store write for a running task: one that throws is a warning, never the end of the task. */
  private persist(taskId: string, what: string, write: () => void): void {
    try {
      write();
    } catch (error) {
      this.emitter.emit('runtime.warning', {
        code: 'PERSISTENCE_FAILED',
        message: `The store could not ${what} of task ${taskId}: ${describeThrown(error)}. The task goes on.`,
        taskId,
      });
    }
  }
}

/** Creates a runtime. See {@link Runtime}. */
export function createRuntime(options: RuntimeOptions): Runtime {
  return new Runtime(options);
}
