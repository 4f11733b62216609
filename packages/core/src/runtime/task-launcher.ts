import type { AnyActorRef } from 'xstate';
import type { Clock } from '../clock.js';
import type { QueuedTask } from '../machines/supervisor-machine.js';
import { machineInputFromSpec } from '../persistence/machine-input.js';
import { queuedRecord } from '../persistence/task-documents.js';
import type { TaskSpec, TaskStore } from '../persistence/types.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { RuntimeEmitter } from './emitter.js';
import type { LazyTeams } from './lazy-teams.js';
import type { RunHost } from './run-host.js';
import type { SupervisorActor } from './runtime-actors.js';
import type { SubagentRef } from './subagent-snapshot.js';
import type { TaskHandle } from './task-handle.js';
import { TaskRun } from './task-run.js';
import type { TaskSettler } from './task-settler.js';
import type { TaskEntry, TaskTable } from './task-table.js';
import type { TaskTooling } from './task-tooling.js';

/**
 * A task that comes back from a stored state: its actor's logic (from a snapshot), its journal's
 * length, and whether it is a fork (a new task that starts from a copied state: `task.started`).
 */
export type RestoredStart = NonNullable<TaskEntry['restore']>;

/** What launching tasks needs from the runtime. */
export interface LauncherHost {
  readonly table: TaskTable;
  readonly store: TaskStore;
  readonly emitter: RuntimeEmitter;
  readonly clock: Clock;
  /** What every task's run is given. */
  readonly runHost: RunHost;
  readonly settler: TaskSettler;
  readonly tooling: TaskTooling;
  readonly teams: LazyTeams;
  readonly supervisor: SupervisorActor;
}

/**
 * @internal The way into the supervisor and out of it for a task: `submit` queues a planned (or
 * restored) task with the supervisor; when the supervisor spawns its actor, `started` gives the
 * actor its {@link TaskRun}, which the actor's effects find with {@link runOf}.
 */
export class TaskLauncher {
  /** Each live subagent actor's run (tasks' and main agents'), for its effects. */
  private readonly runs = new WeakMap<AnyActorRef, TaskRun>();

  constructor(private readonly host: LauncherHost) {}

  /** The run of a subagent actor, or undefined (no run drives it). */
  runOf(actor: AnyActorRef | undefined): TaskRun | undefined {
    return actor ? this.runs.get(actor) : undefined;
  }

  /** A run follows its actor, whose effects find it here; `begin` starts it. */
  attach(run: TaskRun, actor: SubagentRef): void {
    this.runs.set(actor, run);
    run.attach(actor);
  }

  /**
   * Queues a task with the supervisor: adds it to the table, records it as queued unless it is
   * `recorded` already (restored, forked, stored by another process), and emits `task.queued`.
   */
  submit(
    spec: TaskSpec,
    registry: ToolRegistry,
    restore?: RestoredStart,
    recorded = restore !== undefined,
  ): TaskHandle {
    const { table, store, emitter, clock } = this.host;
    const entry = table.add(spec, registry, restore);
    if (!recorded) store.appendStatus(queuedRecord(spec));
    const task: QueuedTask = {
      taskId: spec.taskId,
      sessionKey: spec.sessionKey,
      input: machineInputFromSpec(spec),
    };
    if (spec.parentTaskId) task.parentTaskId = spec.parentTaskId;
    if (restore?.logic) task.logic = restore.logic;
    const supervisor = this.host.supervisor;
    if (emitter.listening('task.queued')) {
      const { running, queue, maxConcurrent } = supervisor.getSnapshot().context;
      const position = running.length < maxConcurrent ? 0 : queue.size + 1;
      emitter.emit('task.queued', Object.assign(table.eventBase(spec, clock.now()), { position }));
    }
    supervisor.send({ type: 'task.submitted', task, system: spec.system });
    return { id: spec.taskId, result: entry.promise };
  }

  /** The supervisor spawned a task's actor: its run follows it, gets the steering that waited, and begins. */
  started(taskId: string, ref: SubagentRef | undefined): void {
    const { table, emitter, tooling, settler } = this.host;
    const entry = table.get(taskId);
    if (!entry || !ref) return;
    const own = tooling.registryAtStart(entry.registry, entry.spec);
    const registry = this.host.teams.loaded?.registryFor(own, entry.spec) ?? own;
    const run = new TaskRun(this.host.runHost, entry.spec, registry, entry.restore?.journalLength ?? 0);
    entry.run = run;
    settler.record(taskId, entry.restore && !entry.restore.forked ? 'task.resumed' : 'task.started');
    entry.restore = undefined;
    this.attach(run, ref);
    for (const text of entry.steering ?? []) run.steer(text);
    delete entry.steering;
    run.begin();
    if (emitter.listening('task.started') && !run.ended) emitter.emit('task.started', run.base());
  }
}
