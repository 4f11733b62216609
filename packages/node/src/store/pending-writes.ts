import { mkdirSync } from 'node:fs';
import {
  type JournalEntry,
  PersistenceError,
  type TaskResultDocument,
  type TaskSnapshotDocument,
  type TaskStatusRecord,
} from '@troupe/core';
import { isFinalStatus } from '@troupe/core/store';
import { appendLinesSync, syncDirectorySync, writeFileAtomicSync } from './sync-file-writes.js';
import type { StorePaths } from './task-file-names.js';

function failure(path: string, error: unknown): PersistenceError {
  if (error instanceof PersistenceError) return error;
  return new PersistenceError(
    'PERSISTENCE_FAILED',
    `Could not write "${path}": ${(error as Error).message}`,
    {
      path,
      cause: error,
    },
  );
}

/**
 * The writes a file store has accepted but not yet put on disk, and the code that puts them there.
 * Lines are serialised when they arrive; snapshots only when written, and only the latest per task.
 * A write that fails stays buffered and is tried again by the next {@link PendingWrites.write}.
 */
export class PendingWrites {
  private statusText = '';
  private readonly journals = new Map<string, string>();
  private readonly snapshots = new Map<string, () => TaskSnapshotDocument>();
  private readonly results = new Map<string, string>();
  /** Files this store has already checked for a torn last line. */
  private readonly repaired = new Set<string>();
  private directoryReady = false;

  constructor(
    private readonly paths: StorePaths,
    private readonly fsync: boolean,
  ) {}

  /**
   * Writes refused because their value cannot be serialised (a BigInt, a cycle): reported by the
   * next {@link PendingWrites.write}, never thrown to the caller, which may be inside an actor.
   */
  private refused: PersistenceError[] = [];

  get empty(): boolean {
    return (
      !this.statusText &&
      this.journals.size === 0 &&
      this.snapshots.size === 0 &&
      this.results.size === 0 &&
      this.refused.length === 0
    );
  }

  status(record: TaskStatusRecord): void {
    const text = this.serialise(
      record,
      `the status record ${record.event} of task ${record.taskId}`,
      this.paths.tasks,
    );
    if (text === undefined) return;
    this.statusText += `${text}\n`;
    // A finished task gets no more journal lines: forget that its journal was checked.
    if (isFinalStatus(record.status)) this.repaired.delete(this.paths.journal(record.taskId));
  }

  journal(taskId: string, entry: JournalEntry): void {
    const path = this.paths.journal(taskId);
    const text = this.serialise(entry, `journal entry ${entry.seq} of task ${taskId}`, path);
    if (text === undefined) return;
    this.journals.set(taskId, `${this.journals.get(taskId) ?? ''}${text}\n`);
  }

  snapshot(taskId: string, produce: () => TaskSnapshotDocument): void {
    this.snapshots.set(taskId, produce);
  }

  result(taskId: string, document: TaskResultDocument): void {
    const text = this.serialise(document, `the result of task ${taskId}`, this.paths.result(taskId));
    if (text !== undefined) this.results.set(taskId, text);
  }

  /** Whether snapshots or results are waiting. */
  get hasDocuments(): boolean {
    return this.snapshots.size > 0 || this.results.size > 0;
  }

  /**
   * Writes the buffered lines and, with `documents`, the snapshots and results, synchronously:
   * journals first, then snapshots and results, then the status log, so that a snapshot on disk
   * never covers journal entries that are not. Returns the first error, if any; what failed stays
   * buffered.
   */
  write(documents: boolean): PersistenceError | undefined {
    if (this.empty) return undefined;
    const errors: PersistenceError[] = this.refused.splice(0);
    try {
      if (!this.directoryReady) mkdirSync(this.paths.dir, { recursive: true });
      this.directoryReady = true;
    } catch (error) {
      return failure(this.paths.dir, error);
    }
    for (const [taskId, text] of this.journals) {
      if (this.append(this.paths.journal(taskId), text, false, errors)) this.journals.delete(taskId);
    }
    let renamed = false;
    for (const [taskId, produce] of documents ? this.snapshots : []) {
      const path = this.paths.snapshot(taskId);
      let text: string;
      try {
        text = JSON.stringify(produce());
      } catch (error) {
        this.snapshots.delete(taskId);
        const message = `Could not produce the snapshot of task ${taskId}: ${(error as Error).message}`;
        errors.push(new PersistenceError('PERSISTENCE_FAILED', message, { path, cause: error }));
        continue;
      }
      if (this.replace(path, text, errors)) {
        this.snapshots.delete(taskId);
        renamed = true;
      }
    }
    for (const [taskId, text] of documents ? this.results : []) {
      if (this.replace(this.paths.result(taskId), text, errors)) {
        this.results.delete(taskId);
        renamed = true;
      }
    }
    if (this.statusText && this.append(this.paths.tasks, this.statusText, true, errors)) this.statusText = '';
    if (this.fsync && renamed) {
      try {
        syncDirectorySync(this.paths.dir);
      } catch (error) {
        errors.push(failure(this.paths.dir, error));
      }
    }
    return errors[0];
  }

  /** JSON text of `value`, or undefined (and a refusal kept for the next write) when it has none. */
  private serialise(value: unknown, what: string, path: string): string | undefined {
    try {
      const text = JSON.stringify(value);
      if (typeof text === 'string') return text;
      throw new TypeError('it has no JSON form');
    } catch (error) {
      this.refused.push(
        new PersistenceError(
          'PERSISTENCE_FAILED',
          `Could not write ${what} to "${path}": ${(error as Error).message}. The write was dropped; the value must be plain JSON data (no BigInt, no cycles).`,
          { path, cause: error },
        ),
      );
      return undefined;
    }
  }

  private append(path: string, text: string, shared: boolean, errors: PersistenceError[]): boolean {
    try {
      appendLinesSync(path, text, {
        repairTornEnd: !this.repaired.has(path),
        fsync: this.fsync,
        followReplacement: shared,
      });
      this.repaired.add(path);
      return true;
    } catch (error) {
      this.repaired.delete(path); // A failed write may have left a torn line: check again next time.
      errors.push(failure(path, error));
      return false;
    }
  }

  private replace(path: string, text: string, errors: PersistenceError[]): boolean {
    try {
      writeFileAtomicSync(path, text, this.fsync);
      return true;
    } catch (error) {
      errors.push(failure(path, error));
      return false;
    }
  }
}
