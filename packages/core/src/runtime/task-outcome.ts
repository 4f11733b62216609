import type { TaskEventBase } from '../events.js';
import { describeThrown } from '../persistence/plain-json.js';
import { finalRecord, resultDocument } from '../persistence/task-documents.js';
import type { TaskResult, TaskSpec } from '../persistence/types.js';
import { announcement } from './announcement.js';
import type { RunHost } from './run-host.js';
import { type TaskInfo, type TaskProgress, taskInfoOf } from './task-info.js';

/** A task's run as it ended: its spec, the time, its final event's fields and its counters (if it ran). */
export interface Ending {
  readonly spec: TaskSpec;
  readonly at: number;
  readonly base: TaskEventBase;
  readonly progress: TaskProgress | undefined;
}

/**
 * @internal The end of one task, which its run ({@link TaskRun}) holds from the moment it is
 * submitted: the promise of its result, and once it ended its result, end time and frozen info.
 * {@link TaskOutcome.end} is the task's one way out: it closes the task's own workspace first (its
 * result names what became of it), then stores the result and the final status record, freezes
 * the info, resolves the promise and emits `task.<status>` (and `task.announced` for a task that
 * announces). A store write that throws is a `PERSISTENCE_FAILED` warning, never the end of the task.
 */
export class TaskOutcome {
  readonly promise: Promise<TaskResult>;
  private resolve!: (result: TaskResult) => void;
  /** The result, once the task ended. */
  result: TaskResult | undefined;
  endedAt: number | undefined;
  /** The task's info as it ended (undefined when it ended before it ran: nothing ran to count). */
  info: TaskInfo | undefined;

  constructor() {
    this.promise = new Promise<TaskResult>((done) => {
      this.resolve = done;
    });
  }

  /**
   * Ends the task with `result` (once: an ended task is left as it is), its run read as it ended
   * (`ending`): its own workspace is closed first, then the task settles.
   */
  end(host: RunHost, ending: Ending, result: TaskResult): void {
    if (this.result) return;
    host.workspaceKeeper.close(ending.spec, result, (final) => this.settle(host, ending, final));
  }

  private settle(host: RunHost, ending: Ending, result: TaskResult): void {
    if (this.result) return;
    const { spec, at, base, progress } = ending;
    const { store, emitter } = host;
    persist(host, spec.taskId, 'save the result', () => store.saveResult(resultDocument(result)));
    persist(host, spec.taskId, `record task.${result.status}`, () =>
      store.appendStatus(finalRecord(result, at)),
    );
    this.result = result;
    this.endedAt = at;
    if (progress) this.info = taskInfoOf(spec, { status: result.status, result, endedAt: at }, progress);
    this.resolve(result);
    const name = `task.${result.status}` as const;
    if (emitter.listening(name)) emitter.emit(name, Object.assign(base, { result }));
    if (spec.announce) {
      emitter.emit(
        'task.announced',
        Object.assign({}, base, { result, message: announcement(spec, result) }),
      );
    }
  }
}

/** A store write for a task: one that throws is a `PERSISTENCE_FAILED` warning, never the end of the task. */
export function persist(host: RunHost, taskId: string, what: string, write: () => void): void {
  try {
    write();
  } catch (error) {
    host.emitter.emit('runtime.warning', {
      code: 'PERSISTENCE_FAILED',
      message: `The store could not ${what} of task ${taskId}: ${describeThrown(error)}. The task goes on.`,
      taskId,
    });
  }
}
