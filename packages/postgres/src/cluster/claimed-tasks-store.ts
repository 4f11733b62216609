import type { StoredTask, StoreWarning, TaskStore } from '@troupe/core';

/**
 * The store a worker's local runtime sees: the Postgres store, except that `loadTasks` returns
 * only the tasks this worker has just claimed (and forgets them), so `runtime.restore()` brings
 * back exactly those: a queued task starts, a taken-over one resumes from its snapshot and
 * journal. Closing is left to the worker, which owns the real store.
 */
export class ClaimedTasksStore implements TaskStore {
  private claimed: StoredTask[] = [];

  constructor(private readonly store: TaskStore) {}

  claim(task: StoredTask): void {
    this.claimed.push(task);
  }

  async loadTasks(): Promise<{ tasks: StoredTask[]; warnings: StoreWarning[] }> {
    const tasks = this.claimed;
    this.claimed = [];
    return { tasks, warnings: [] };
  }

  appendStatus: TaskStore['appendStatus'] = (record) => this.store.appendStatus(record);
  appendJournal: TaskStore['appendJournal'] = (taskId, entry) => this.store.appendJournal(taskId, entry);
  saveSnapshot: TaskStore['saveSnapshot'] = (taskId, produce) => this.store.saveSnapshot(taskId, produce);
  saveResult: TaskStore['saveResult'] = (document) => this.store.saveResult(document);
  flush: TaskStore['flush'] = () => this.store.flush();
  listTasks: TaskStore['listTasks'] = (query) => this.store.listTasks(query);
  getTask: TaskStore['getTask'] = (taskId) => this.store.getTask(taskId);
  loadJournal: TaskStore['loadJournal'] = (taskId) => this.store.loadJournal(taskId);
  loadSnapshot: TaskStore['loadSnapshot'] = (taskId) => this.store.loadSnapshot(taskId);
  loadResult: TaskStore['loadResult'] = (taskId) => this.store.loadResult(taskId);
  prune: TaskStore['prune'] = (options) => this.store.prune(options);
}
