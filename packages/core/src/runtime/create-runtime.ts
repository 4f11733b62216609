import type { Clock } from '../clock.js';
import { TroupeError, ValidationError } from '../errors.js';
import type { RuntimeEventName, RuntimeEvents } from '../events.js';
import type { AgentMemory } from '../memory/agent-memory.js';
import type { Message } from '../model/types.js';
import { defaultGraceMs } from '../persistence/machine-input.js';
import { isFinalStatus } from '../persistence/statuses.js';
import type {
  StoreWarning,
  TaskQuery,
  TaskResult,
  TaskSpec,
  TaskStore,
  TeamLink,
} from '../persistence/types.js';
import type { CreateTeamOptions, TeamHandle } from '../teams/index.js';
import type { Teams } from '../teams/team-registry.js';
import type { Tool } from '../tools/define-tool.js';
import { DEFAULT_PRICES, type PriceTable } from '../usage/prices.js';
import type { UsageQuery, UsageReport } from '../usage/usage-report.js';
import type { AgentCatalog } from './agent-catalog.js';
import type { ForkSource } from './cache-fork.js';
import type { FollowUpOptions } from './follow-up.js';
import type { ForkOptions } from './fork-task.js';
import type { PermissionModeOptions } from './permission-modes.js';
import { prepareTask } from './prepare-task.js';
import { restoredLogic } from './restore-plan.js';
import type { RuntimeLimits } from './runtime-limits.js';
import type { RuntimeOptions } from './runtime-options.js';
import { RuntimeParts, stoppedError } from './runtime-parts.js';
import { Session, type SessionActor, type SessionOptions } from './session.js';
import type { SpawnOptions } from './spawn-options.js';
import type { SubagentRef } from './subagent-snapshot.js';
import type { TaskClient, TaskHistoryPage } from './task-client.js';
import type { TaskHandle } from './task-handle.js';
import { storedTaskInfo, type TaskInfo } from './task-info.js';
import { submitRun, type TaskRun } from './task-run.js';
import type { TaskListFilter } from './task-table.js';
import type { TaskTooling } from './task-tooling.js';

/**
 * The troupe runtime: the facade a host programs against. See the README and DESIGN.md "The
 * contract". Bad input (unknown agent, empty prompt, invalid options, input failing an agent's
 * input schema) throws synchronously; task failures are data on the result.
 *
 * It turns API calls into events of its actor system and events into the public API; each
 * concept has its own owner, wired in `runtime-parts.ts`: the supervisor and the session and
 * subagent actors (`runtime-actors.ts`), each task from its submission to its end (`task-run.ts`,
 * indexed by `task-table.ts`), restore (`task-restorer.ts`), sessions' runs (`session-hosting.ts`),
 * and what an agent is given, its workspace included (`task-tooling.ts`).
 */
export class Runtime implements TaskClient {
  readonly limits: RuntimeLimits;
  readonly agents: AgentCatalog;
  readonly store: TaskStore;
  readonly clock: Clock;
  /** @internal Tasks spawned without a session key (and no parent to inherit one from). */
  readonly keylessTasks: Set<string>;
  /** @internal What an agent is given: tools, skills, its own workspace ({@link TaskTooling}). */
  readonly tooling: TaskTooling;
  /** The owners of its concepts, wired to each other (`runtime-parts.ts`). */
  private readonly parts: RuntimeParts;

  constructor(options: RuntimeOptions) {
    if (!options || typeof options.model?.generate !== 'function') {
      throw new TroupeError(
        'MODEL_NOT_CONFIGURED',
        'createRuntime needs a model: pass { model } with a ModelAdapter (e.g. scriptedModel from @troupe/core/testing, or createAnthropicModel from @troupe/anthropic).',
      );
    }
    const parts = new RuntimeParts(options, this);
    this.parts = parts;
    this.limits = parts.limits;
    this.agents = parts.agents;
    this.store = parts.store;
    this.clock = parts.clock;
    this.keylessTasks = parts.keylessTasks;
    this.tooling = parts.tooling;
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
    // Loaded at the first follow-up, like fork planning.
    return import('./follow-up.js').then(({ followUp }) => followUp(this, target, message, options));
  }

  /** @internal The status of a task this runtime runs, or undefined. */
  liveStatus(taskId: string): string | undefined {
    const status = this.parts.table.get(taskId)?.status;
    return status && !isFinalStatus(status) ? status : undefined;
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
    const teams = await this.parts.teams.load();
    this.assertRunning();
    return teams.create(options);
  }

  /** @internal The runtime's teams, loaded (once). Reach it with `teamRegistryOf`. */
  loadTeams(): Promise<Teams> {
    return this.parts.teams.load();
  }

  /** A team this runtime created or restored, by id. */
  team(teamId: string): TeamHandle | undefined {
    return this.parts.teams.loaded?.get(teamId);
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
      return submitRun(this.parts, prepareTask(this, rest, taskId).spec);
    }
    return submitRun(this.parts, prepareTask(this, options, this.parts.createId()).spec);
  }

  /**
   * @internal Runs a task whose spec another process prepared and stored as queued (a cluster
   * client): through the supervisor's queue, like a spawn, without recording it again. Throws
   * `VALIDATION_FAILED` if this runtime already holds the task. Reach it with `storedTaskRunnerOf`.
   */
  runStored(spec: TaskSpec): TaskHandle {
    this.assertRunning();
    if (this.parts.table.get(spec.taskId))
      throw new TroupeError(
        'VALIDATION_FAILED',
        `runStored: task ${spec.taskId} is already in this runtime.`,
      );
    return submitRun(this.parts, spec, undefined, true);
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
    const plan = await planFork(this, taskId, options, this.parts.createId());
    this.assertRunning();
    const { spec } = plan;
    recordFork(this.store, plan);
    const logic = restoredLogic(this.parts.subagent, plan.snapshot);
    return submitRun(this.parts, spec, { logic, journalLength: plan.entries.length, forked: true }, true);
  }

  /** A task's current information, or undefined. */
  get(id: string): TaskInfo | undefined {
    return this.parts.table.info(id, this.clock.now());
  }

  /**
   * A task's result. For a task this runtime runs, resolves when it ends; for a task that ended
   * before (another process, before a restart), loads it from the store. Undefined when neither
   * knows the task, or the store's task is unfinished and not restored here. Never rejects for a
   * task failure; rejects with a `PersistenceError` when the stored result cannot be read.
   */
  async result(id: string): Promise<TaskResult | undefined> {
    const run = this.parts.table.get(id);
    if (run) return run.promise;
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
    return this.parts.options.prices ?? DEFAULT_PRICES;
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
    return this.parts.table.list(filter, this.clock.now());
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
    const run = this.parts.table.get(id);
    if (!run) throw new TroupeError('TASK_NOT_FOUND', `steer: no task "${id}" runs in this runtime.`);
    if (run.result)
      throw new TroupeError(
        'TASK_ENDED',
        `steer: task ${id} has already ended (${run.result.status}); start a new task instead.`,
      );
    run.steer(text);
  }

  /** Cancels a queued or running task. Returns false if it is unknown or already ended. */
  cancel(id: string, reason?: string): boolean {
    const run = this.parts.table.get(id);
    if (!run || run.result) return false;
    this.parts.supervisor.send(
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
    return this.parts.table.get(id)?.result ? this.parts.table.delete(id) : false;
  }

  /** Cancels every queued and running task of a session. Returns how many. */
  cancelSession(sessionKey: string, reason?: string): number {
    this.parts.teams.loaded?.cancelSession(sessionKey);
    const count = this.parts.table.activeInSession(sessionKey);
    this.parts.supervisor.send(
      reason
        ? { type: 'session.cancelRequested', sessionKey, reason }
        : { type: 'session.cancelRequested', sessionKey },
    );
    return count;
  }

  /** Approves a pending tool call. `always` remembers the tool for the task's session. */
  approve(approvalId: string, options: { always?: boolean } = {}): void {
    this.parts.approvals.resolve(approvalId, 'approve', options);
  }

  /** Denies a pending tool call; the model gets the reason as an error tool result. */
  deny(approvalId: string, reason?: string): void {
    this.parts.approvals.resolve(approvalId, 'deny', reason ? { reason } : {});
  }

  /** Approvals waiting for the host. */
  pendingApprovals() {
    return this.parts.approvals.list();
  }

  /** Subscribes to an event; returns an unsubscribe function. */
  on<TName extends RuntimeEventName>(
    name: TName,
    listener: (event: RuntimeEvents[TName]) => void,
  ): () => void {
    return this.parts.emitter.on(name, listener);
  }

  /** The tools a main agent gets: task, task_status, task_list, cancel_task, spawn. */
  mainTools(): Tool[] {
    return [...this.parts.mainTools];
  }

  /** A main-agent session: a conversation whose agent can delegate. */
  createSession(options: SessionOptions = {}): Session {
    this.assertRunning();
    const session = new Session(this, this.parts.sessions.runHost, options);
    this.parts.sessions.add(session);
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
    if (this.parts.stopped) return Promise.reject(stoppedError());
    return this.parts.restorer.restore(options);
  }

  /**
   * Stops the runtime. By default every queued and running task is cancelled (results resolve as
   * `cancelled`); with `{ keepTasks: true }` they are left in the store, unfinished, for a later
   * `restore()`. Always flushes the store.
   */
  async shutdown(options: { keepTasks?: boolean } = {}): Promise<void> {
    if (this.parts.stopped) return;
    // Sessions' main-agent runs are not persisted: they end with the runtime.
    this.parts.sessions.closeAll();
    this.parts.teams.loaded?.shutdown(options.keepTasks === true);
    if (!options.keepTasks) {
      for (const info of this.parts.table.list({ active: true }, this.clock.now()))
        this.cancel(info.id, 'The runtime shut down.');
    }
    this.parts.stopped = true;
    this.parts.restorer.stop();
    this.parts.table.detachAll();
    this.parts.supervisor.stop();
    // Tasks cancelled above whose workspace is being closed record their result before the store closes.
    await this.parts.tooling.idle();
    await this.store.flush();
    await this.store.close?.();
    this.parts.emitter.removeAll();
  }

  /** @internal Used by main tools and sessions. */
  runOf(taskId: string): TaskRun | undefined {
    const run = this.parts.table.get(taskId);
    return run?.running ? run : this.parts.sessions.runOf(taskId);
  }

  /** @internal Used by sessions. */
  openSession(actorId: string, sessionKey: string, conversation: readonly Message[]): SessionActor {
    return this.parts.sessions.open(actorId, sessionKey, conversation);
  }

  /** @internal Used by sessions. */
  closeSession(actorId: string): void {
    this.parts.sessions.close(actorId);
  }

  /** @internal Used by sessions: a main-agent run follows its actor (a child of the session's) and starts. */
  startRun(run: TaskRun, actor: SubagentRef): void {
    this.parts.sessions.startRun(run, actor);
  }

  /** @internal The `skill` tool a session's main agent gets (Claude Code's `Skill`); undefined without skills. */
  get skillTool(): Tool | undefined {
    return this.parts.tooling.skillTool;
  }

  /** @internal The host's agent memory (a session's main agent with `memory` is told of it). */
  get agentMemory(): AgentMemory | undefined {
    return this.parts.options.memory;
  }

  /** @internal */
  baseToolList(): readonly Tool[] {
    return this.parts.baseTools;
  }

  /** @internal Tells this runtime's listeners of an event its teams and team tools report. */
  report<TName extends RuntimeEventName>(name: TName, event: RuntimeEvents[TName]): void {
    this.parts.emitter.emit(name, event);
  }

  /** @internal What the host allows of agents' permission modes. */
  get permissionModes(): PermissionModeOptions {
    return this.parts.options.permissionModes ?? {};
  }

  /** @internal Reports a `runtime.warning` about a task. */
  warn(code: 'PERMISSION_MODE_CHANGED', message: string, taskId: string): void {
    this.parts.emitter.emit('runtime.warning', { code, message, taskId });
  }

  /** @internal */
  graceMsFor(timeoutMs: number): number {
    return this.parts.options.graceMs ?? defaultGraceMs(timeoutMs);
  }

  private assertRunning(): void {
    this.parts.assertRunning();
  }
}

/** Creates a runtime. See {@link Runtime}. */
export function createRuntime(options: RuntimeOptions): Runtime {
  return new Runtime(options);
}
