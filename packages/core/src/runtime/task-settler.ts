import type { Clock } from '../clock.js';
import { describeThrown } from '../persistence/plain-json.js';
import { finalRecord, resultDocument, statusRecord } from '../persistence/task-documents.js';
import type { TaskResult, TaskSpec, TaskStore } from '../persistence/types.js';
import { announcement } from './announcement.js';
import type { RuntimeEmitter } from './emitter.js';
import { cancelledBeforeStart } from './task-results.js';
import type { TaskTable } from './task-table.js';
import type { WorkspaceKeeper } from './task-workspaces.js';

/** What settling a task needs: where tasks are tracked, stored, announced, and their workspaces. */
export interface SettlerHost {
  readonly table: TaskTable;
  readonly store: TaskStore;
  readonly emitter: RuntimeEmitter;
  readonly clock: Clock;
  readonly workspaceKeeper: WorkspaceKeeper;
}

/**
 * @internal The one owner of a task's status records and its end: records what its state entered
 * (`task.started`, `task.resumed`, `task.awaitingApproval`), and when it ends closes its workspace,
 * stores its result and final record, settles it in the task table and emits `task.<status>` (and
 * `task.announced` for a task that announces). A store write that throws is a `PERSISTENCE_FAILED`
 * warning, never the end of the task.
 */
export class TaskSettler {
  constructor(private readonly host: SettlerHost) {}

  /** Ends a task with `result` at `at` (once: a task already settled is left as it is). */
  settle(spec: TaskSpec, result: TaskResult, at: number): void {
    const entry = this.host.table.get(spec.taskId);
    if (!entry || entry.result) return;
    // A task's own workspace is closed first: its result names what became of it.
    this.host.workspaceKeeper.close(spec, result, (final) => this.settleNow(spec, final, at));
  }

  /** The supervisor dropped a queued task (cancelled before it started): it ends `cancelled`. */
  dropped(taskId: string, reason: string | undefined): void {
    const entry = this.host.table.get(taskId);
    if (!entry || entry.result) return;
    const result = cancelledBeforeStart(entry.spec, reason ?? 'The task was cancelled before it started.');
    this.settle(entry.spec, result, this.host.clock.now());
  }

  /** Records a status a task's state entered. */
  record(taskId: string, event: 'task.started' | 'task.resumed' | 'task.awaitingApproval'): void {
    const { store, clock } = this.host;
    this.persist(taskId, `record ${event}`, () =>
      store.appendStatus(statusRecord(taskId, event, clock.now())),
    );
  }

  private settleNow(spec: TaskSpec, result: TaskResult, at: number): void {
    const { table, store, emitter } = this.host;
    const entry = table.get(spec.taskId);
    if (!entry || entry.result) return;
    this.persist(spec.taskId, 'save the result', () => store.saveResult(resultDocument(result)));
    this.persist(spec.taskId, `record task.${result.status}`, () =>
      store.appendStatus(finalRecord(result, at)),
    );
    const base = table.settle(spec.taskId, result, at);
    if (!base) return;
    const name = `task.${result.status}` as const;
    if (emitter.listening(name)) emitter.emit(name, Object.assign(base, { result }));
    if (spec.announce) {
      emitter.emit(
        'task.announced',
        Object.assign({}, base, { result, message: announcement(spec, result) }),
      );
    }
  }

  /** A store write for a running task: one that throws is a warning, never the end of the task. */
  private persist(taskId: string, what: string, write: () => void): void {
    try {
      write();
    } catch (error) {
      this.host.emitter.emit('runtime.warning', {
        code: 'PERSISTENCE_FAILED',
        message: `The store could not ${what} of task ${taskId}: ${describeThrown(error)}. The task goes on.`,
        taskId,
      });
    }
  }
}
