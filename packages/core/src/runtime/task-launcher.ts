import type { Clock } from '../clock.js';
import type { QueuedTask } from '../machines/supervisor-machine.js';
import { machineInputFromSpec } from '../persistence/machine-input.js';
import { queuedRecord } from '../persistence/task-documents.js';
import type { TaskSpec, TaskStore } from '../persistence/types.js';
import type { RuntimeEmitter } from './emitter.js';
import type { RunHost } from './run-host.js';
import type { SupervisorActor } from './runtime-actors.js';
import type { SubagentRef } from './subagent-snapshot.js';
import type { TaskHandle } from './task-handle.js';
import { TaskRun } from './task-run.js';
import type { TaskEntry, TaskTable } from './task-table.js';

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
  readonly supervisor: SupervisorActor;
}

/**
 * @internal The way into the supervisor and out of it for a task: `submit` queues a planned (or
 * restored) task with the supervisor; when the supervisor spawns its actor, `started` gives the
 * actor its {@link TaskRun}, which launches itself (its effects find it with `runOfActor`).
 */
export class TaskLauncher {
  constructor(private readonly host: LauncherHost) {}

  /**
   * Queues a task with the supervisor: adds it to the table, records it as queued unless it is
   * `recorded` already (restored, forked, stored by another process), and emits `task.queued`.
   */
  submit(spec: TaskSpec, restore?: RestoredStart, recorded = restore !== undefined): TaskHandle {
    const { table, store, emitter, clock } = this.host;
    const entry = table.add(spec, restore);
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

  /**
   * The supervisor spawned a task's actor: its run (which takes its tools from the run host)
   * follows it and launches, with the steering that waited for it.
   */
  started(taskId: string, ref: SubagentRef | undefined): void {
    const entry = this.host.table.get(taskId);
    if (!entry || !ref) return;
    const { restore, steering = [] } = entry;
    const run = new TaskRun(this.host.runHost, entry.spec, { journalLength: restore?.journalLength ?? 0 });
    entry.run = run;
    entry.restore = undefined;
    delete entry.steering;
    run.launch(ref, { resumed: restore !== undefined && !restore.forked, steering });
  }
}
