import type { Clock } from '../clock.js';
import { systemClock } from '../clock.js';
import { TroupeError } from '../errors.js';
import type { SubagentMachine } from '../machines/subagent-machine.js';
import type { TaskStore } from '../persistence/types.js';
import { createMemoryStore } from '../store/memory-store.js';
import type { TeamRuntime } from '../teams/team-runtime.js';
import type { Tool } from '../tools/define-tool.js';
import { assertNoShadowedMainTool, assertUniqueToolNames } from '../tools/tool-registry.js';
import { AgentCatalog } from './agent-catalog.js';
import { ApprovalCoordinator } from './approvals.js';
import { RuntimeEmitter } from './emitter.js';
import { LazyTeams } from './lazy-teams.js';
import { createMainTools, type MainToolsRuntime } from './main-tools.js';
import type { RunHost } from './run-host.js';
import { type SupervisorActor, startActorSystem } from './runtime-actors.js';
import { type RuntimeLimits, runtimeLimits } from './runtime-limits.js';
import type { RuntimeOptions } from './runtime-options.js';
import { SessionHosting } from './session-hosting.js';
import { startContextOf } from './start-context.js';
import { createTaskId } from './task-id.js';
import { TaskRestorer } from './task-restorer.js';
import { TaskTable } from './task-table.js';
import { TaskTooling } from './task-tooling.js';

/**
 * @internal A runtime's parts, made from its options and wired to each other: each part is given
 * this object and reads the others it needs from it. The runtime's tables, store and events;
 * approvals, what agents are given and their workspaces ({@link TaskTooling}), the run host every
 * task's run is given, the restorer and session hosting, and the actor system (started). A task is
 * submitted with `submitRun(parts, spec)` (`task-run.ts`).
 * Throws a `TroupeError` for invalid limits and a `ToolError` for tools that clash.
 */
export class RuntimeParts {
  readonly limits: RuntimeLimits;
  readonly clock: Clock;
  readonly store: TaskStore;
  readonly agents: AgentCatalog;
  readonly emitter = new RuntimeEmitter();
  readonly table = new TaskTable();
  /** The base tool set every agent's registry is cut from. */
  readonly baseTools: readonly Tool[];
  /** Tasks spawned without a session key (and no parent to inherit one from). */
  readonly keylessTasks = new Set<string>();
  /** Task id generator (ids must be unique per store). */
  readonly createId: () => string;
  /** Agent teams, loaded at the first team created or restored. */
  readonly teams: LazyTeams;
  readonly approvals: ApprovalCoordinator;
  /** The tools a main agent gets: task, task_status, task_list, cancel_task, spawn. */
  readonly mainTools: Tool[];
  readonly tooling: TaskTooling;
  /** What every task's run is given. */
  readonly runHost: RunHost;
  /** The root of the runtime's actor system (started). */
  readonly supervisor: SupervisorActor;
  /** The subagent machine with the effects performed for real. */
  readonly subagent: SubagentMachine;
  readonly sessions: SessionHosting;
  readonly restorer: TaskRestorer;
  /** True once the runtime has shut down. */
  stopped = false;

  constructor(
    readonly options: RuntimeOptions,
    runtime: MainToolsRuntime & TeamRuntime,
  ) {
    this.limits = runtimeLimits(options.limits);
    const clock = options.clock ?? systemClock;
    this.clock = clock;
    this.store = options.store ?? createMemoryStore();
    const createId = options.createId ?? createTaskId;
    this.createId = createId;
    this.baseTools = options.tools ?? [];
    assertUniqueToolNames(this.baseTools);
    const agents = new AgentCatalog(options.agents ?? [], options.models ?? {});
    this.agents = agents;
    const { emitter } = this;
    const approvals = new ApprovalCoordinator(options.approval ?? 'ask', emitter, (taskId, sessionKey) =>
      // A task spawned without a session key has no session: "always allow" covers that task only.
      this.keylessTasks.has(taskId) ? `task:${taskId}` : sessionKey,
    );
    this.approvals = approvals;
    this.mainTools = createMainTools(runtime, options.teamTools === true);
    const teams = new LazyTeams(runtime, () => createId());
    this.teams = teams;
    assertNoShadowedMainTool(this.baseTools, this.mainTools);
    const tooling = new TaskTooling(this);
    this.tooling = tooling;
    this.runHost = {
      clock,
      model: options.model,
      store: this.store,
      emitter,
      maxTokens: options.maxTokens ?? 8192,
      ...(options.hooks ? { hooks: options.hooks } : {}),
      tooling,
      dispositionFor: (spec, tool, access) =>
        teams.loaded?.disposition(spec, access) ?? approvals.dispositionFor(spec, tool, access),
      requestApproval: (request, signal, asked) => approvals.request(request, signal, asked),
      reportAutomaticDecision: (request, decision, reason) =>
        approvals.reportAutomatic(request, decision, reason),
      checkOutput: (spec, text) => agents.checkOutput(spec, text),
    };
    const startContext = startContextOf(agents, options.hooks, options.memory, (code, message, taskId) =>
      emitter.emit('runtime.warning', { code, message, taskId }),
    );
    if (startContext) this.runHost.startContext = startContext;
    // The actor system reads the task table and session hosting only once tasks and sessions come.
    const system = startActorSystem(this);
    this.supervisor = system.supervisor;
    this.subagent = system.subagent;
    this.sessions = new SessionHosting(this);
    this.restorer = new TaskRestorer(this);
  }

  /** Throws `RUNTIME_STOPPED` once the runtime has shut down. */
  assertRunning(): void {
    if (this.stopped) throw stoppedError();
  }
}

/** The error of a call to a runtime that has shut down. */
export function stoppedError(): TroupeError {
  return new TroupeError('RUNTIME_STOPPED', 'The runtime has been shut down; create a new one.');
}
