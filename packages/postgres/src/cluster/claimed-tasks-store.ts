import { PersistenceError, type StoredTask, type StoreWarning, type TaskStore } from '@troupe/core';

/** Delays between reads of a task's journal or snapshot while the server is away (ms). */
const READ_RETRY_MS = [100, 200, 400, 800, 1_600, 2_000];

/**
 * The store a worker's local runtime sees: the Postgres store, except that `loadTasks` returns
 * only the tasks this worker has claimed and not yet restored, so `runtime.restore({ taskIds })`
 * brings back exactly the one it names: a queued task starts, a taken-over one resumes from its
 * snapshot and journal; and that nothing is written for a task the worker gave up (another
 * worker claimed it). A task's journal and snapshot are read again while the server is
 * unreachable (a lost connection mid-restore must not pass for a corrupt task, which would fail
 * it for good), until `stopped()`. Closing is left to the worker, which owns the real store.
 */
export class ClaimedTasksStore implements TaskStore {
  private readonly claimed = new Map<string, StoredTask>();
  /** Tasks given up: their writes are dropped until they are claimed again. */
  private readonly abandoned = new Set<string>();

  constructor(
    private readonly store: TaskStore,
    private readonly stopped: () => boolean = () => false,
    private readonly wait: (ms: number) => Promise<void> = (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  claim(task: StoredTask): void {
    this.abandoned.delete(task.spec.taskId);
    this.claimed.set(task.spec.taskId, task);
  }

  /** The task's restore is over (done or failed): `loadTasks` no longer returns it. */
  restored(taskId: string): void {
    this.claimed.delete(taskId);
  }

  /** Drops every later write for `taskId` (until it is claimed again). */
  abandon(taskId: string): void {
    this.abandoned.add(taskId);
  }

  isAbandoned(taskId: string): boolean {
    return this.abandoned.has(taskId);
  }

  async loadTasks(): Promise<{ tasks: StoredTask[]; warnings: StoreWarning[] }> {
    return { tasks: [...this.claimed.values()], warnings: [] };
  }

  appendStatus: TaskStore['appendStatus'] = (record) => {
    if (!this.abandoned.has(record.taskId)) this.store.appendStatus(record);
  };
  appendJournal: TaskStore['appendJournal'] = (taskId, entry) => {
    if (!this.abandoned.has(taskId)) this.store.appendJournal(taskId, entry);
  };
  saveSnapshot: TaskStore['saveSnapshot'] = (taskId, produce) => {
    if (!this.abandoned.has(taskId)) this.store.saveSnapshot(taskId, produce);
  };
  saveResult: TaskStore['saveResult'] = (document) => {
    if (!this.abandoned.has(document.result.taskId)) this.store.saveResult(document);
  };
  flush: TaskStore['flush'] = () => this.store.flush();
  listTasks: TaskStore['listTasks'] = (query) => this.store.listTasks(query);
  getTask: TaskStore['getTask'] = (taskId) => this.store.getTask(taskId);
  loadJournal: TaskStore['loadJournal'] = (taskId) => this.retried(() => this.store.loadJournal(taskId));
  loadSnapshot: TaskStore['loadSnapshot'] = (taskId) => this.retried(() => this.store.loadSnapshot(taskId));
  loadResult: TaskStore['loadResult'] = (taskId) => this.store.loadResult(taskId);
  prune: TaskStore['prune'] = (options) => this.store.prune(options);

  /** `read`, again while it fails to reach the server; a corrupt document's error passes through. */
  private async retried<T>(read: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await read();
      } catch (error) {
        if (!PersistenceError.isInstance(error) || error.code !== 'PERSISTENCE_FAILED' || this.stopped())
          throw error;
        await this.wait(READ_RETRY_MS[Math.min(attempt, READ_RETRY_MS.length - 1)]!);
      }
    }
  }
}
