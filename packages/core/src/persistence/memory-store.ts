import type {
  JournalEntry,
  StoredTask,
  TaskResult,
  TaskResultDocument,
  TaskSnapshotDocument,
  TaskStatusRecord,
  TaskStore,
} from './types.js';

interface MemoryTask {
  task: StoredTask;
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
  const tasks = new Map<string, MemoryTask>();
  const records: TaskStatusRecord[] = [];

  function entry(taskId: string): MemoryTask | undefined {
    return tasks.get(taskId);
  }

  return {
    records,
    appendStatus(record) {
      records.push(record);
      const existing = entry(record.taskId);
      if (record.spec) {
        if (!existing) {
          tasks.set(record.taskId, {
            task: { spec: record.spec, status: record.status, updatedAt: record.at },
            journal: [],
          });
        }
        return;
      }
      if (!existing) return;
      existing.task = {
        ...existing.task,
        status: record.status,
        updatedAt: record.at,
        ...(record.result ? { result: record.result } : {}),
      };
    },
    appendJournal(taskId, journalEntry) {
      entry(taskId)?.journal.push(journalEntry);
    },
    saveSnapshot(taskId, produce) {
      const existing = entry(taskId);
      if (existing) existing.snapshot = produce;
    },
    saveResult(document: TaskResultDocument) {
      const existing = entry(document.result.taskId);
      if (existing) existing.result = document.result;
    },
    async flush() {},
    async loadTasks() {
      return { tasks: [...tasks.values()].map((item) => item.task), warnings: [] };
    },
    async loadJournal(taskId) {
      return { entries: [...(entry(taskId)?.journal ?? [])], warnings: [] };
    },
    async loadSnapshot(taskId) {
      return entry(taskId)?.snapshot?.();
    },
    async loadResult(taskId) {
      return entry(taskId)?.result;
    },
    async prune({ olderThan }) {
      let removed = 0;
      for (const [taskId, item] of tasks) {
        const ended = item.task.result !== undefined;
        if (ended && item.task.updatedAt < olderThan) {
          tasks.delete(taskId);
          removed++;
        }
      }
      return removed;
    },
  };
}
