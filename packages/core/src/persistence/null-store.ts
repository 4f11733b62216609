import type { TaskStore } from './types.js';

/** A store that keeps nothing: for work that is not a supervised task (a session's main agent). */
export const nullStore: TaskStore = {
  appendStatus() {},
  appendJournal() {},
  saveSnapshot() {},
  saveResult() {},
  async flush() {},
  async loadTasks() {
    return { tasks: [], warnings: [] };
  },
  async listTasks() {
    return { tasks: [] };
  },
  async getTask() {
    return undefined;
  },
  async loadJournal() {
    return { entries: [], warnings: [] };
  },
  async loadSnapshot() {
    return undefined;
  },
  async loadResult() {
    return undefined;
  },
};
