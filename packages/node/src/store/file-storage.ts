import { mkdirSync } from 'node:fs';
import {
  type JournalEntry,
  PersistenceError,
  type TaskResultDocument,
  type TaskSnapshotDocument,
  type TaskStatusRecord,
} from '@troupe/core';
import {
  isFinalStatus,
  jsonTextOf,
  parseStoredDocument,
  type StatusRead,
  type StorageReads,
  type StoredDocuments,
  snapshotRefusal,
  type WritesOneByOne,
} from '@troupe/core/store';
import { FileHistoryIndex } from './history-index.js';
import { pruneStore } from './prune-store.js';
import { readJsonLines } from './read-json-lines.js';
import { readRegularFile } from './regular-files.js';
import { readStatusLog, type StatusLogPosition } from './status-log-reader.js';
import { appendLinesSync, syncDirectorySync, writeFileAtomicSync } from './sync-file-writes.js';
import { checkTaskId, type StorePaths } from './task-file-names.js';
import type { StoreRunner } from './task-owner.js';

/** Options of {@link FileStorage}. */
export interface FileStorageOptions {
  fsync: boolean;
  lockStaleMs: number;
}

function writeFailure(path: string, error: unknown): PersistenceError {
  if (PersistenceError.isInstance(error)) return error;
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
 * The storage port over a store directory: `tasks.jsonl` (the status log, each record stamped
 * with the process that wrote it), and per task `<taskId>.journal.jsonl`, `<taskId>.snapshot.json`
 * and `<taskId>.json`. Lines are appended whole with one O_APPEND write each batch (a torn end left
 * by a crash is repaired first); documents are replaced atomically. All writes are synchronous,
 * so that a process exit hook can still write what is buffered.
 */
export class FileStorage implements StorageReads<StatusLogPosition>, WritesOneByOne {
  readonly location: string;
  /** `tasks.index`: what `listTasks` and `getTask` are answered from. */
  readonly history: FileHistoryIndex;
  /** Status records appended since the history index was last asked to fold its tail. */
  private appended = 0;
  /** Files already checked for a torn last line. */
  private readonly repaired = new Set<string>();
  private directoryReady = false;
  private renamed = false;

  constructor(
    private readonly paths: StorePaths,
    private readonly runner: StoreRunner,
    private readonly options: FileStorageOptions,
  ) {
    this.location = paths.dir;
    this.history = new FileHistoryIndex(paths, options.fsync);
  }

  checkTaskId(taskId: unknown): string {
    return checkTaskId(taskId, this.paths.dir);
  }

  appendStatus(records: readonly TaskStatusRecord[]): readonly PersistenceError[] | undefined {
    const refused: PersistenceError[] = [];
    const owner = this.runner.claim();
    let text = '';
    for (const record of records) {
      const line = jsonTextOf(
        { ...record, owner },
        `the status record ${record.event} of task ${record.taskId}`,
        this.paths.tasks,
        refused,
      );
      if (line !== undefined) text += `${line}\n`;
    }
    if (text) this.append(this.paths.tasks, text, true);
    this.appended += records.length;
    // Rarely: a run's writes stay appends; a long-running writer keeps the index from falling far behind.
    if (this.appended >= 10_000) {
      this.appended = 0;
      this.history.compactSoon();
    }
    // A finished task gets no more journal lines: forget that its journal was checked.
    for (const record of records)
      if (isFinalStatus(record.status)) this.repaired.delete(this.paths.journal(record.taskId));
    return refused.length > 0 ? refused : undefined;
  }

  appendJournal(taskId: string, entries: readonly JournalEntry[]): readonly PersistenceError[] | undefined {
    const path = this.paths.journal(taskId);
    const refused: PersistenceError[] = [];
    let text = '';
    for (const entry of entries) {
      const line = jsonTextOf(entry, `journal entry ${entry.seq} of task ${taskId}`, path, refused);
      if (line !== undefined) text += `${line}\n`;
    }
    if (text) this.append(path, text, false);
    return refused.length > 0 ? refused : undefined;
  }

  putSnapshot(taskId: string, produce: () => TaskSnapshotDocument): readonly PersistenceError[] | undefined {
    const path = this.paths.snapshot(taskId);
    let text: string;
    try {
      text = JSON.stringify(produce());
    } catch (error) {
      return [snapshotRefusal(taskId, path, error)];
    }
    this.replace(path, text);
    return undefined;
  }

  putResult(taskId: string, document: TaskResultDocument): readonly PersistenceError[] | undefined {
    const path = this.paths.result(taskId);
    const refused: PersistenceError[] = [];
    const text = jsonTextOf(document, `the result of task ${taskId}`, path, refused);
    if (text !== undefined) this.replace(path, text);
    return refused.length > 0 ? refused : undefined;
  }

  endFlush(): undefined {
    if (!this.renamed) return undefined;
    this.renamed = false;
    if (this.options.fsync) {
      try {
        syncDirectorySync(this.paths.dir);
      } catch (error) {
        throw writeFailure(this.paths.dir, error);
      }
    }
    return undefined;
  }

  readStatus(position?: StatusLogPosition): Promise<StatusRead<StatusLogPosition>> {
    return readStatusLog(this.paths.tasks, position);
  }

  async readJournal(taskId: string) {
    const parse = (text: string) => parseStoredDocument('journal', text);
    const { lines, warnings } = await readJsonLines(this.paths.journal(taskId), parse);
    return { entries: lines.map(({ value, line }) => ({ value, line })), warnings };
  }

  readSnapshot(taskId: string): Promise<TaskSnapshotDocument | undefined> {
    return this.readDocument(this.paths.snapshot(taskId), 'snapshot');
  }

  readResult(taskId: string): Promise<TaskResultDocument | undefined> {
    return this.readDocument(this.paths.result(taskId), 'result');
  }

  async remove(taskIds: ReadonlySet<string>): Promise<void> {
    await pruneStore(this.paths, taskIds, {
      lockStaleMs: this.options.lockStaleMs,
      fsync: this.options.fsync,
    });
  }

  locate(taskId: string, kind: 'snapshot' | 'journal' | 'result'): string {
    return this.paths[kind](taskId);
  }

  private ensureDirectory(): void {
    if (this.directoryReady) return;
    try {
      mkdirSync(this.paths.dir, { recursive: true });
    } catch (error) {
      throw writeFailure(this.paths.dir, error);
    }
    this.directoryReady = true;
  }

  private append(path: string, text: string, shared: boolean): void {
    this.ensureDirectory();
    try {
      appendLinesSync(path, text, {
        repairTornEnd: !this.repaired.has(path),
        fsync: this.options.fsync,
        followReplacement: shared,
      });
      this.repaired.add(path);
    } catch (error) {
      this.repaired.delete(path); // A failed write may have left a torn line: check again next time.
      throw writeFailure(path, error);
    }
  }

  private replace(path: string, text: string): void {
    this.ensureDirectory();
    try {
      writeFileAtomicSync(path, text, this.options.fsync);
      this.renamed = true;
    } catch (error) {
      throw writeFailure(path, error);
    }
  }

  private async readDocument<K extends 'snapshot' | 'result'>(
    path: string,
    kind: K,
  ): Promise<StoredDocuments[K] | undefined> {
    let text: string | undefined;
    try {
      text = await readRegularFile(path);
    } catch (error) {
      if (PersistenceError.isInstance(error)) throw error;
      throw new PersistenceError(
        'PERSISTENCE_FAILED',
        `Could not read "${path}": ${(error as Error).message}`,
        {
          path,
          cause: error,
        },
      );
    }
    if (text === undefined) return undefined;
    const parsed = parseStoredDocument(kind, text);
    if (!parsed.ok) throw new PersistenceError(parsed.code, `${path}: ${parsed.message}.`, { path });
    return parsed.value;
  }
}
