import type { Clock } from '../clock.js';
import type { SubagentMachine } from '../machines/subagent-machine.js';
import type { TaskStore } from '../persistence/types.js';
import type { Tool } from '../tools/define-tool.js';
import { assertNoShadowedMainTool } from '../tools/tool-registry.js';
import type { AgentCatalog } from './agent-catalog.js';
import { ApprovalCoordinator } from './approvals.js';
import type { RuntimeEmitter } from './emitter.js';
import { createMainTools, type MainToolsRuntime } from './main-tools.js';
import type { RunHost } from './run-host.js';
import { type SupervisorActor, startActorSystem } from './runtime-actors.js';
import type { RuntimeLimits } from './runtime-limits.js';
import type { RuntimeOptions } from './runtime-options.js';
import { SessionHosting } from './session-hosting.js';
import { startContextOf } from './start-context.js';
import { TaskLauncher } from './task-launcher.js';
import { TaskRestorer } from './task-restorer.js';
import { TaskSettler } from './task-settler.js';
import type { TaskTable } from './task-table.js';
import { TaskTooling } from './task-tooling.js';
import { WorkspaceKeeper } from './task-workspaces.js';

/** What the runtime has made before its parts: its own fields, and itself for the main tools. */
export interface RuntimeCore {
  readonly limits: RuntimeLimits;
  readonly agents: AgentCatalog;
  readonly store: TaskStore;
  readonly clock: Clock;
  readonly emitter: RuntimeEmitter;
  readonly table: TaskTable;
  readonly baseTools: readonly Tool[];
  /** Tasks spawned without a session key: their "always allow" covers the task alone. */
  readonly keylessTasks: ReadonlySet<string>;
  /** The runtime, as the main tools see it. */
  readonly runtime: MainToolsRuntime;
  /** True once the runtime has shut down. */
  stopped(): boolean;
  /** Throws `RUNTIME_STOPPED` once the runtime has shut down. */
  assertRunning(): void;
}

/** @internal The owners a runtime's concepts have; see {@link assembleRuntime}. */
export interface RuntimeParts {
  readonly approvals: ApprovalCoordinator;
  readonly workspaceKeeper: WorkspaceKeeper;
  /** The tools a main agent gets: task, task_status, task_list, cancel_task, spawn. */
  readonly mainTools: Tool[];
  readonly tooling: TaskTooling;
  readonly launcher: TaskLauncher;
  readonly sessions: SessionHosting;
  readonly restorer: TaskRestorer;
  /** The root of the runtime's actor system (started). */
  readonly supervisor: SupervisorActor;
  /** The subagent machine with the effects performed for real. */
  readonly subagent: SubagentMachine;
}

/**
 * @internal Makes a runtime's parts from its options and wires them to each other: approvals,
 * workspaces, the tools agents are given, the run host every task's run is given, the launcher,
 * settler, restorer and session hosting, and the actor system (started). Throws a `ToolError`
 * when a base tool shadows a main tool.
 */
export function assembleRuntime(options: RuntimeOptions, core: RuntimeCore): RuntimeParts {
  const { agents, store, clock, emitter, table, limits } = core;
  const approvals = new ApprovalCoordinator(options.approval ?? 'ask', emitter, (taskId, sessionKey) =>
    // A task spawned without a session key has no session: "always allow" covers that task only.
    core.keylessTasks.has(taskId) ? `task:${taskId}` : sessionKey,
  );
  const workspaceKeeper = new WorkspaceKeeper(options.workspaces, (taskId, message) =>
    emitter.emit('runtime.warning', { code: 'WORKSPACE_FAILED', message, taskId }),
  );
  const mainTools = createMainTools(core.runtime);
  assertNoShadowedMainTool(core.baseTools, mainTools);
  const tooling = new TaskTooling({
    agents,
    emitter,
    baseTools: core.baseTools,
    mainTools,
    maxDepth: limits.maxDepth,
    toolSources: options.toolSources,
    memory: options.memory,
    skills: options.skills,
    workspaceKeeper,
  });
  const settler = new TaskSettler({ table, store, emitter, clock, workspaceKeeper });
  const runHost: RunHost = {
    clock,
    model: options.model,
    store,
    emitter,
    maxTokens: options.maxTokens ?? 8192,
    ...(options.hooks ? { hooks: options.hooks } : {}),
    dispositionFor: (spec, tool, access) => approvals.dispositionFor(spec, tool, access),
    requestApproval: (request, signal, asked) => approvals.request(request, signal, asked),
    recordStatus: (taskId, event) => settler.record(taskId, event),
    reportAutomaticDecision: (request, decision, reason) =>
      approvals.reportAutomatic(request, decision, reason),
    checkOutput: (spec, text) => agents.checkOutput(spec, text),
    finished: (task, result) => settler.settle(task.spec, result, clock.now()),
  };
  const startContext = startContextOf(agents, options.hooks, options.memory, (code, message, taskId) =>
    emitter.emit('runtime.warning', { code, message, taskId }),
  );
  if (startContext) runHost.startContext = startContext;
  let system: { supervisor: SupervisorActor; subagent: SubagentMachine } | undefined;
  const supervisor = (): SupervisorActor => {
    if (!system) throw new Error('assembleRuntime: the actor system was used before it started.');
    return system.supervisor;
  };
  const launcher = new TaskLauncher({ table, store, emitter, clock, runHost, settler, tooling, supervisor });
  const sessions = new SessionHosting({ runHost, table, clock, launcher, supervisor });
  system = startActorSystem({
    maxConcurrent: limits.maxConcurrent,
    inspect: options.inspect,
    runOf: (actor) => launcher.runOf(actor),
    taskStarted: (taskId, ref) => launcher.started(taskId, ref),
    taskDropped: (taskId, reason) => settler.dropped(taskId, reason),
    cancelRunning: (taskId, reason) => table.get(taskId)?.run?.cancel(reason),
    runStarted: (sessionActorId, runId, actor) => sessions.runStarted(sessionActorId, runId, actor),
  });
  const { subagent } = system;
  const restorer = new TaskRestorer({
    table,
    store,
    emitter,
    clock,
    launcher,
    settler,
    tooling,
    subagent,
    stopped: core.stopped,
    assertRunning: core.assertRunning,
  });
  return {
    approvals,
    workspaceKeeper,
    mainTools,
    tooling,
    launcher,
    sessions,
    restorer,
    supervisor: system.supervisor,
    subagent,
  };
}
