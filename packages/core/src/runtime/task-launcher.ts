import type { AnyActorLogic } from 'xstate';
import type { QueuedTask } from '../machines/supervisor-machine.js';
import { machineInputFromSpec } from '../persistence/machine-input.js';
import { queuedRecord } from '../persistence/task-documents.js';
import type { TaskSpec, TaskStore } from '../persistence/types.js';
import type { RuntimeEmitter } from './emitter.js';
import type { RunHost } from './run-host.js';
import type { SupervisorActor } from './runtime-actors.js';
import type { TaskHandle } from './task-handle.js';
import { type RunStartsFrom, TaskRun } from './task-run.js';
import type { TaskTable } from './task-table.js';

/**
 * A task that comes back from a stored state: its actor's logic (from a snapshot), its journal's
 * length, and whether it is a fork (a new task that starts from a copied state: `task.started`).
 */
export interface RestoredStart extends RunStartsFrom {
  logic: AnyActorLogic | undefined;
}

/** What launching tasks needs from the runtime. */
export interface LauncherHost {
  readonly table: TaskTable;
  readonly store: TaskStore;
  readonly emitter: RuntimeEmitter;
  /** What every task's run is given. */
  readonly runHost: RunHost;
  readonly supervisor: SupervisorActor;
}

/**
 * @internal The way into the supervisor for a task: `submit` makes the task's {@link TaskRun} (its
 * one entry from queued to its end) and queues it with the supervisor, which launches the run when
 * it spawns the task's actor (`runtime-actors.ts`).
 */
export class TaskLauncher {
  constructor(private readonly host: LauncherHost) {}

  /**
   * Queues a task with the supervisor: adds it to the table, records it as queued unless it is
   * `recorded` already (restored, forked, stored by another process), and emits `task.queued`.
   */
  submit(spec: TaskSpec, restore?: RestoredStart, recorded = restore !== undefined): TaskHandle {
    const { table, store, emitter } = this.host;
    const run = table.add(new TaskRun(this.host.runHost, spec, restore ? { restore } : {}));
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
      emitter.emit('task.queued', Object.assign(run.base(), { position }));
    }
    supervisor.send({ type: 'task.submitted', task, system: spec.system });
    return { id: spec.taskId, result: run.promise };
  }
}
