import type { StoredTask, StoreWarning, TaskStore } from '@troupe/core';

/**
 * The store a worker's local runtime sees: the Postgres store, except that `loadTasks` returns
 * only the tasks this worker has just claimed (and forgets them), so `runtime.restore()` brings
 * back exactly those: a queued task starts, a taken-over one resumes from its snapshot and
 * journal; and that nothing is written for a task the worker gave up (another worker claimed it).
 * Closing is left to the worker, which owns the real store.
 */
export class ClaimedTasksStore implements TaskStore {
  private claimed: StoredTask[] = [];
  /** Tasks given up: their writes are dropped until they are claimed again. */
  private readonly abandoned = new Set<string>();

  constructor(private readonly store: TaskStore) {}

  claim(task: StoredTask): void {
    this.abandoned.delete(task.spec.taskId);
    this.claimed.push(task);
  }

  /** Drops every later write for `taskId` (until it is claimed again). */
  abandon(taskId: string): void {
    this.abandoned.add(taskId);
  }

  isAbandoned(taskId: string): boolean {
    return this.abandoned.has(taskId);
  }

  async loadTasks(): Promise<{ tasks: StoredTask[]; warnings: StoreWarning[] }> {
    const tasks = this.claimed;
    this.claimed = [];
    return { tasks, warnings: [] };
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
  loadJournal: TaskStore['loadJournal'] = (taskId) => this.store.loadJournal(taskId);
  loadSnapshot: TaskStore['loadSnapshot'] = (taskId) => this.store.loadSnapshot(taskId);
  loadResult: TaskStore['loadResult'] = (taskId) => this.store.loadResult(taskId);
  prune: TaskStore['prune'] = (options) => this.store.prune(options);
}
