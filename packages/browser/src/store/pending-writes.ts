import type { JournalEntry, TaskResultDocument, TaskSnapshotDocument, TaskStatusRecord } from '@troupe/core';

/** Writes taken out of {@link PendingWrites} to go into one IndexedDB transaction. */
export interface WriteBatch {
  /** Status records as JSON text, in the order they were appended. */
  statuses: { taskId: string; text: string }[];
  /** Journal entries as JSON text, by task and position. */
  journals: Map<string, Map<number, string>>;
  /** The latest snapshot of each task, produced when the batch is written. */
  snapshots: Map<string, () => TaskSnapshotDocument>;
  /** Result documents as JSON text. */
  results: Map<string, string>;
}

/** The tasks a batch writes to, for error messages. */
export function tasksOf(batch: WriteBatch): string[] {
  const ids = new Set<string>(batch.statuses.map((status) => status.taskId));
  for (const map of [batch.journals, batch.snapshots, batch.results])
    for (const id of map.keys()) ids.add(id);
  return [...ids];
}

const emptyBatch = (): WriteBatch => ({
  statuses: [],
  journals: new Map(),
  snapshots: new Map(),
  results: new Map(),
});

/**
 * What an IndexedDB store has accepted but not written yet. Lines (status records, journal
 * entries) are serialised when they arrive; snapshots only when written, and only the latest per
 * task. A batch that could not be written is put back ({@link PendingWrites.putBack}), so nothing
 * is lost when a write fails: it is tried again at the next flush.
 */
export class PendingWrites {
  private pending = emptyBatch();

  get empty(): boolean {
    const { statuses, journals, snapshots, results } = this.pending;
    return statuses.length === 0 && journals.size === 0 && snapshots.size === 0 && results.size === 0;
  }

  status(record: TaskStatusRecord): void {
    this.pending.statuses.push({ taskId: record.taskId, text: JSON.stringify(record) });
  }

  journal(taskId: string, entry: JournalEntry): void {
    const entries = this.pending.journals.get(taskId) ?? new Map<number, string>();
    this.pending.journals.set(taskId, entries);
    entries.set(entry.seq, JSON.stringify(entry));
  }

  snapshot(taskId: string, produce: () => TaskSnapshotDocument): void {
    this.pending.snapshots.set(taskId, produce);
  }

  result(taskId: string, document: TaskResultDocument): void {
    this.pending.results.set(taskId, JSON.stringify(document));
  }

  /** Takes the lines and, with `documents`, the snapshots and results; the rest stays pending. */
  take(documents: boolean): WriteBatch {
    const taken = this.pending;
    this.pending = emptyBatch();
    if (!documents) {
      this.pending.snapshots = taken.snapshots;
      this.pending.results = taken.results;
      taken.snapshots = new Map();
      taken.results = new Map();
    }
    return taken;
  }

  /** Puts back a batch that could not be written, ahead of what was accepted since. */
  putBack(batch: WriteBatch): void {
    const newer = this.pending;
    this.pending = batch;
    batch.statuses.push(...newer.statuses);
    for (const [taskId, entries] of newer.journals) {
      const older = batch.journals.get(taskId);
      if (!older) batch.journals.set(taskId, entries);
      else for (const [seq, text] of entries) older.set(seq, text);
    }
    for (const [taskId, produce] of newer.snapshots) batch.snapshots.set(taskId, produce);
    for (const [taskId, text] of newer.results) batch.results.set(taskId, text);
  }
}
