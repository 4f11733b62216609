import { PersistenceError, type StoredTask, type StoreWarning, type TaskStore } from '@troupe/core';

/** Delays between reads of a task's journal or snapshot while the server is away (ms). */
const READ_RETRY_MS = [100, 200, 400, 800, 1_600, 2_000];

/**
 * The store a worker's local runtime sees: the Postgres store, except that `loadTasks` returns
 * only the tasks this worker has claimed and not yet restored, so `runtime.restore({ taskIds })`
 * brings back exactly the one it names (a taken-over task resumes from its snapshot and journal)
 * without reading every task of the cluster. A task's journal and snapshot are read again while
 * the server is unreachable (a lost connection mid-restore must not pass for a corrupt task, which
 * would fail it for good), until `stopped()`. Writes go straight to the store, whose fence drops
 * those of a task the worker gave up (`PostgresTaskStore.fenceAs`). Closing is left to the worker,
 * which owns the real store.
 */
export class ClaimedTasksStore implements TaskStore {
  private readonly claimed = new Map<string, StoredTask>();

  constructor(
    private readonly store: TaskStore,
    private readonly stopped: () => boolean = () => false,
    private readonly wait: (ms: number) => Promise<void> = (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  claim(task: StoredTask): void {
    this.claimed.set(task.spec.taskId, task);
  }

  /** The task's restore is over (done or failed): `loadTasks` no longer returns it. */
  restored(taskId: string): void {
    this.claimed.delete(taskId);
  }

  async loadTasks(): Promise<{ tasks: StoredTask[]; warnings: StoreWarning[] }> {
    return { tasks: [...this.claimed.values()], warnings: [] };
  }

  appendStatus: TaskStore['appendStatus'] = (record) => this.store.appendStatus(record);
  appendJournal: TaskStore['appendJournal'] = (taskId, entry) => this.store.appendJournal(taskId, entry);
  saveSnapshot: TaskStore['saveSnapshot'] = (taskId, produce) => this.store.saveSnapshot(taskId, produce);
  saveResult: TaskStore['saveResult'] = (document) => this.store.saveResult(document);
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
