import {
  type JournalEntry,
  PersistenceError,
  type StoreWarning,
  type TaskResultDocument,
  type TaskSnapshotDocument,
  type TaskStatusRecord,
  ValidationError,
} from '@troupe/core';
import {
  jsonTextOf,
  type PortBatch,
  parseStoredDocument,
  type StatusRead,
  type StorageReads,
  type StoredDocuments,
  type StoredLine,
  snapshotRefusal,
  type WritesInBatches,
} from '@troupe/core/store';
import type { UseStore } from 'idb-keyval';
import {
  type DocumentWrites,
  deleteTasks,
  readJournal,
  readStatusLog,
  readValue,
  writeDocuments,
} from './idb-documents.js';
import { resultKey, snapshotKey } from './store-keys.js';

// The storage port of the IndexedDB store: what only IndexedDB does — one transaction per flush,
// keys laid out as store-keys.ts says, documents kept as the file store's JSON text and read back
// with core's parsers. Buffering, retries, folding the status log, paging and prune's choice live
// once in core (`createTaskStore`).

/** The failure of a whole batch: IndexedDB refused the transaction (a full disk, mostly). */
function batchFailure(error: unknown, taskIds: string[], location: string): PersistenceError {
  const name = (error as { name?: string } | null)?.name ?? 'Error';
  const what =
    name === 'QuotaExceededError'
      ? `IndexedDB is out of space (QuotaExceededError): the browser's storage quota for this origin is used up`
      : `IndexedDB refused the write (${name}: ${(error as Error)?.message ?? String(error)})`;
  const message = `${what}. The writes of task${taskIds.length === 1 ? '' : 's'} ${taskIds.join(', ')} are kept in memory and tried again at the next flush; free space (prune old tasks) or they are lost when the page closes.`;
  return new PersistenceError('PERSISTENCE_FAILED', message, { path: location, cause: error });
}

/** Where the status log stands: the number of the next record to read. */
type StatusPosition = number;

/** A {@link StorageReads} and {@link WritesInBatches} port over one IndexedDB database. */
export class IndexedDbStorage implements StorageReads<StatusPosition>, WritesInBatches {
  readonly location: string;

  constructor(
    readonly use: UseStore,
    database: string,
  ) {
    this.location = `indexeddb:${database}`;
  }

  checkTaskId(taskId: unknown): string {
    if (typeof taskId !== 'string' || taskId === '') {
      throw new ValidationError(`A task id must be a non-empty string; got ${JSON.stringify(taskId)}.`, [
        'taskId',
      ]);
    }
    return taskId;
  }

  locate(taskId: string, kind: 'snapshot' | 'journal' | 'result'): string {
    return `${this.location}/${kind}/${taskId}`;
  }

  async writeBatch(batch: PortBatch): Promise<readonly PersistenceError[] | undefined> {
    const refused: PersistenceError[] = [];
    const writes: DocumentWrites = { statuses: [], journals: [], snapshots: [], results: [] };
    const taskIds = new Set<string>();
    for (const [taskId, entries] of batch.journals) {
      taskIds.add(taskId);
      for (const entry of entries) {
        const text = jsonTextOf(
          entry,
          `journal entry ${entry.seq} of task ${taskId}`,
          this.locate(taskId, 'journal'),
          refused,
        );
        if (text !== undefined) writes.journals.push([taskId, entry.seq, text]);
      }
    }
    for (const [taskId, produce] of batch.snapshots) {
      taskIds.add(taskId);
      try {
        writes.snapshots.push([taskId, JSON.stringify(produce())]);
      } catch (error) {
        refused.push(snapshotRefusal(taskId, this.locate(taskId, 'snapshot'), error));
      }
    }
    for (const [taskId, document] of batch.results) {
      taskIds.add(taskId);
      const text = jsonTextOf(
        document,
        `the result of task ${taskId}`,
        this.locate(taskId, 'result'),
        refused,
      );
      if (text !== undefined) writes.results.push([taskId, text]);
    }
    for (const record of batch.statuses) {
      taskIds.add(record.taskId);
      const what = `the status record ${record.event} of task ${record.taskId}`;
      const text = jsonTextOf(record, what, `${this.location}/status`, refused);
      if (text !== undefined) writes.statuses.push(text);
    }
    try {
      await writeDocuments(this.use, writes);
    } catch (error) {
      throw batchFailure(error, [...taskIds], this.location);
    }
    return refused.length > 0 ? refused : undefined;
  }

  async readStatus(position?: StatusPosition): Promise<StatusRead<StatusPosition>> {
    const records: TaskStatusRecord[] = [];
    const warnings: StoreWarning[] = [];
    let next = position ?? 0;
    for (const { seq, value } of await this.read('the status log', () => readStatusLog(this.use, position))) {
      next = seq + 1;
      const parsed = parseStoredDocument('status', value);
      if (parsed.ok) records.push(parsed.value);
      else {
        const path = `${this.location}/status/${seq}`;
        warnings.push({
          code: parsed.code,
          message: `${path}: ${parsed.message}; the record was skipped.`,
          path,
        });
      }
    }
    // Records are only appended (their numbers never reused) and removed by prune, which the
    // store forgets itself: the log is never replaced.
    return { records, warnings, position: next, restarted: false };
  }

  async readJournal(
    taskId: string,
  ): Promise<{ entries: StoredLine<JournalEntry>[]; warnings: StoreWarning[] }> {
    const path = this.locate(taskId, 'journal');
    const entries: StoredLine<JournalEntry>[] = [];
    const warnings: StoreWarning[] = [];
    for (const [index, stored] of (await this.read(path, () => readJournal(this.use, taskId))).entries()) {
      const line = index + 1;
      const parsed = parseStoredDocument('journal', stored.value);
      if (!parsed.ok) {
        warnings.push({
          code: parsed.code,
          message: `${path} (task ${taskId}), entry ${line}: ${parsed.message}; this entry and the rest of the journal were skipped.`,
          path,
          line,
        });
        break;
      }
      entries.push({ value: parsed.value, line });
    }
    return { entries, warnings };
  }

  readSnapshot(taskId: string): Promise<TaskSnapshotDocument | undefined> {
    return this.readDocument(snapshotKey(taskId), taskId, 'snapshot');
  }

  readResult(taskId: string): Promise<TaskResultDocument | undefined> {
    return this.readDocument(resultKey(taskId), taskId, 'result');
  }

  async remove(taskIds: ReadonlySet<string>): Promise<void> {
    if (taskIds.size === 0) return;
    const seqs: number[] = [];
    for (const { seq, value } of await readStatusLog(this.use)) {
      const parsed = parseStoredDocument('status', value);
      if (parsed.ok && taskIds.has(parsed.value.taskId)) seqs.push(seq);
    }
    await deleteTasks(this.use, seqs, [...taskIds]);
  }

  private async readDocument<K extends 'snapshot' | 'result'>(
    key: IDBValidKey,
    taskId: string,
    kind: K,
  ): Promise<StoredDocuments[K] | undefined> {
    const path = this.locate(taskId, kind);
    const value = await this.read(path, () => readValue(this.use, key));
    if (value === undefined) return undefined;
    const parsed = parseStoredDocument(kind, value, `The ${kind} document of task ${taskId}`);
    if (!parsed.ok) throw new PersistenceError(parsed.code, `${path}: ${parsed.message}.`, { path });
    return parsed.value;
  }

  private async read<T>(what: string, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      throw new PersistenceError(
        'PERSISTENCE_FAILED',
        `Could not read ${what}: ${(error as Error).message}`,
        {
          path: this.location,
          cause: error,
        },
      );
    }
  }
}
