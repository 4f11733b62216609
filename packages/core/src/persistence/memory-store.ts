import { applyStatusRecord } from './fold-status-records.js';
import { pageOfTasks, summaryOf } from './task-pages.js';
import type {
  JournalEntry,
  StoredTask,
  TaskResult,
  TaskSnapshotDocument,
  TaskStatusRecord,
  TaskStore,
  TaskSummary,
} from './types.js';

interface MemoryDocuments {
  journal: JournalEntry[];
  snapshot?: () => TaskSnapshotDocument;
  result?: TaskResult;
}

/**
 * A `TaskStore` in memory: the default. Tasks survive a `runtime.restore()` within the process
 * (pass the same store to a new runtime), not a restart. Documents are kept by reference; the
 * runtime never mutates what it writes.
 */
export function createMemoryStore(): TaskStore & { readonly records: readonly TaskStatusRecord[] } {
  const tasks = new Map<string, StoredTask>();
  const summaries = new Map<string, TaskSummary>();
  const documents = new Map<string, MemoryDocuments>();
  const records: TaskStatusRecord[] = [];

  return {
    records,
    appendStatus(record) {
      records.push(record);
      const changed = applyStatusRecord(tasks, record);
      if (!changed) return;
      summaries.set(record.taskId, summaryOf(changed));
      if (!documents.has(record.taskId)) documents.set(record.taskId, { journal: [] });
    },
    appendJournal(taskId, journalEntry) {
      documents.get(taskId)?.journal.push(journalEntry);
    },
    saveSnapshot(taskId, produce) {
      const existing = documents.get(taskId);
      if (existing) existing.snapshot = produce;
    },
    saveResult(document) {
      const existing = documents.get(document.result.taskId);
      if (existing) existing.result = document.result;
    },
    async flush() {},
    async loadTasks() {
      return { tasks: [...tasks.values()], warnings: [] };
    },
    async listTasks(query) {
      return pageOfTasks(summaries.values(), query);
    },
    async getTask(taskId) {
      return tasks.get(taskId);
    },
    async loadJournal(taskId) {
      return { entries: [...(documents.get(taskId)?.journal ?? [])], warnings: [] };
    },
    async loadSnapshot(taskId) {
      return documents.get(taskId)?.snapshot?.();
    },
    async loadResult(taskId) {
      return documents.get(taskId)?.result;
    },
    async prune({ olderThan }) {
      let removed = 0;
      for (const [taskId, task] of tasks) {
        if (task.result !== undefined && task.updatedAt < olderThan) {
          tasks.delete(taskId);
          summaries.delete(taskId);
          documents.delete(taskId);
          removed++;
        }
      }
      return removed;
    },
  };
}
