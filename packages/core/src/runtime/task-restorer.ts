import type { Clock } from '../clock.js';
import { ValidationError } from '../errors.js';
import type { SubagentMachine } from '../machines/subagent-machine.js';
import { machineInputFromSpec } from '../persistence/machine-input.js';
import { describeThrown } from '../persistence/plain-json.js';
import { isFinalStatus } from '../persistence/statuses.js';
import { isTeamTask } from '../persistence/task-facts.js';
import type { StoredTask, StoreWarning, TaskStore } from '../persistence/types.js';
import type { RuntimeEmitter } from './emitter.js';
import type { LazyTeams } from './lazy-teams.js';
import type { OwnerWatch } from './owner-watch.js';
import { isStoreFailure, planRestore, restoredLogic } from './restore-plan.js';
import type { RunHost } from './run-host.js';
import { corruptBeforeRestore } from './task-results.js';
import { type RunQueue, submitRun, TaskRun } from './task-run.js';
import type { TaskTable } from './task-table.js';

/** What `restore()` resolves to: the tasks brought back, and what the store warned of. */
export interface RestoreOutcome {
  restored: string[];
  warnings: StoreWarning[];
}

/** Options of `restore()`. */
export interface RestoreOptions {
  taskIds?: readonly string[];
  ownerCheckMs?: number;
}

/** What restoring tasks needs from the runtime. */
export interface RestorerHost extends RunQueue {
  readonly table: TaskTable;
  readonly store: TaskStore;
  readonly emitter: RuntimeEmitter;
  readonly clock: Clock;
  /** What every task's run is given. */
  readonly runHost: RunHost;
  /** Agent teams: restored before their members' spells. */
  readonly teams: LazyTeams;
  /** The subagent machine with real effects: a restored snapshot's logic is cut from it. */
  readonly subagent: SubagentMachine;
  /** True once the runtime has shut down. */
  readonly stopped: boolean;
  /** Throws `RUNTIME_STOPPED` once the runtime has shut down. */
  assertRunning(): void;
}

/**
 * @internal The one owner of bringing unfinished tasks back from the store (see `Runtime.restore`):
 * one restore run at a time, shared by calls for the same task ids; tasks another live runtime
 * runs are watched, and resumed here once it is gone.
 */
export class TaskRestorer {
  /** Unfinished tasks the store said another live runtime runs: resumed here once it is gone. */
  readonly ownedElsewhere = new Set<string>();
  /** How often the store is asked again about them, in ms (0: never). */
  ownerCheckMs = 2_000;
  /** Their watch, loaded when the store first reports such a task. */
  private watch: OwnerWatch | undefined;
  /** The restore run in progress, shared by calls for the same task ids. */
  private restoring: { key: string; promise: Promise<RestoreOutcome> } | undefined;

  constructor(readonly host: RestorerHost) {}

  /** See `Runtime.restore`. Rejects with a `ValidationError` for an `ownerCheckMs` that is not a number ≥ 0. */
  restore(options: RestoreOptions): Promise<RestoreOutcome> {
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

  /** Stops watching the tasks other runtimes run (the runtime shuts down). */
  stop(): void {
    this.watch?.stop();
    this.ownedElsewhere.clear();
  }

  private async restoreOnce(options: { taskIds?: readonly string[] }): Promise<RestoreOutcome> {
    const { table, store, emitter } = this.host;
    this.host.assertRunning();
    const locked = await store.lockForRestore?.();
    const only = options.taskIds ? new Set(options.taskIds) : undefined;
    // Named tasks are read by id from the store's index: restoring one task of a large store (a
    // cluster worker's claim, the owner watch) does not read every task.
    const { tasks, warnings } = only ? await tasksById(store, only) : await store.loadTasks();
    if (locked) warnings.unshift(...locked.warnings);
    const restored: string[] = [];
    const elsewhere = new Set(locked?.runElsewhere ?? []);
    // Teams first: their restored spells find them when they call a team tool.
    const teams = !only && tasks.some((task) => task.spec.team) ? await this.host.teams.load() : undefined;
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
    if (this.ownedElsewhere.size && this.ownerCheckMs !== 0 && !this.watch) {
      // Only a store several runtimes share reports such tasks: the watch is loaded then.
      const { OwnerWatch } = await import('./owner-watch.js');
      this.watch ??= new OwnerWatch(this);
    }
    this.watch?.arm();
    for (const task of pending) {
      const spec = task.spec;
      if (table.get(spec.taskId)) continue;
      const warn = (code: 'PERSISTENCE_CORRUPT' | 'TASK_RESTARTED', message: string) =>
        emitter.emit('runtime.warning', { code, message, taskId: spec.taskId });
      const plan = await planRestore(store, task, {
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
      if (this.host.stopped) break;
      if (table.get(spec.taskId)) continue;
      if ('unavailable' in plan) {
        // The store failed, not the task: it stays unfinished, for the next restore().
        const message = `Task ${spec.taskId} was not restored: the store could not be read (${plan.unavailable}). It is left unfinished; call restore() again once the store is back.`;
        warnings.push({ code: 'PERSISTENCE_FAILED', message });
        emitter.emit('runtime.warning', { code: 'PERSISTENCE_FAILED', message, taskId: spec.taskId });
        continue;
      }
      restored.push(spec.taskId);
      if ('corrupt' in plan) {
        // This task alone fails; the others restore.
        const run = new TaskRun(this.host.runHost, spec);
        table.set(spec.taskId, run);
        run.endBeforeStart(corruptBeforeRestore(spec, plan.corrupt));
        continue;
      }
      const logic =
        plan.snapshot === undefined ? undefined : restoredLogic(this.host.subagent, plan.snapshot);
      submitRun(this.host, spec, { logic, journalLength: plan.journalLength });
    }
    if (teams && !this.host.stopped) await teams.resume(tasks);
    return { restored, warnings };
  }
}

/** The stored tasks of `taskIds` that the store has, each read by id (`TaskStore.getTask`). */
async function tasksById(
  store: TaskStore,
  taskIds: ReadonlySet<string>,
): Promise<{ tasks: StoredTask[]; warnings: StoreWarning[] }> {
  const found = await Promise.all([...taskIds].map((taskId) => store.getTask(taskId)));
  return { tasks: found.filter((task) => task !== undefined), warnings: [] };
}
