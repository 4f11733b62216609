import {
  type JournalEntry,
  PersistenceError,
  type StoreWarning,
  type TaskResultDocument,
  type TaskSnapshotDocument,
  type TaskStatusRecord,
} from '@troupe/core';
import {
  type Parsed,
  type PortBatch,
  parseJournalEntry,
  parseResultDocument,
  parseSnapshotDocument,
  parseStatusRecord,
  type StatusRead,
  type StorageReads,
  type StoredLine,
  snapshotRefusal,
  type WritesInBatches,
} from '@troupe/core/store';
import type pg from 'pg';
import { PostgresHistory, readRows } from './postgres-history.js';
import { type WriteBatch, writeBatch } from './write-batch.js';

/** Who writes a store's status records: stamped as `owner` in each (see `PostgresTaskStore`). */
export interface RecordOwner {
  runner: number;
  pid: number;
  host: string;
}

/**
 * A cluster worker's fence: its writes for a task another worker has claimed are dropped in the
 * transaction (`troupe.write_batch`), and `onFenced` gets those tasks' ids before the flush that
 * dropped them resolves.
 */
export interface WriteFence {
  workerId: string;
  onFenced: (taskIds: string[]) => void;
}

/**
 * The storage port of the Postgres store (core's `StoragePort`, writing in batches): each flush is
 * one call of `troupe.write_batch` — one round trip, one transaction — with its notices sent by
 * `pg_notify` in it (delivered when it commits) and, for a cluster worker, fenced by the task's
 * owner. Status records are stamped with this store's runner, whose lock is held before any of them
 * lands. `troupe.tasks` is the history index. Buffering, retries, snapshot coalescing and paging
 * live once in core (`createTaskStore`).
 */
export class PostgresStorage implements StorageReads<number>, WritesInBatches {
  readonly history: PostgresHistory;
  /** Set by a cluster worker: see {@link WriteFence}. */
  fence: WriteFence | undefined;

  constructor(
    private readonly pool: pg.Pool,
    readonly location: string,
    private readonly owner: RecordOwner,
    /** Holds this store's runner lock (taken once, kept until close). */
    private readonly holdRunnerLock: () => Promise<unknown>,
    /** Told when a batch failed (the store keeps it): to try it again. */
    private readonly onFailed: () => void,
  ) {
    this.history = new PostgresHistory(pool, location);
  }

  async writeBatch(batch: PortBatch): Promise<readonly PersistenceError[] | undefined> {
    const refused: PersistenceError[] = [];
    const snapshots: WriteBatch['snapshots'] = [];
    for (const [taskId, produce] of batch.snapshots) {
      try {
        snapshots.push({ taskId, document: produce() });
      } catch (error) {
        refused.push(snapshotRefusal(taskId, this.location, error));
      }
    }
    const journal: WriteBatch['journal'] = [];
    for (const [taskId, entries] of batch.journals)
      for (const entry of entries) journal.push({ taskId, entry });
    const statuses = batch.statuses.map((record) => ({ ...record, owner: this.owner }) as TaskStatusRecord);
    let fenced: string[];
    try {
      // Records name this store's runner: its lock is held before any of them lands.
      if (statuses.length) await this.holdRunnerLock();
      fenced = await writeBatch(
        this.pool,
        {
          statuses,
          journal,
          snapshots,
          results: [...batch.results.values()],
          notifications: batch.notices.map((notice) => ({
            channel: notice.channel,
            taskId: notice.taskId,
            payload: notice.payload,
          })),
        },
        this.fence?.workerId,
      );
    } catch (error) {
      this.onFailed();
      throw new PersistenceError(
        'PERSISTENCE_FAILED',
        `Could not write to the task store at ${this.location}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    if (fenced.length) this.fence?.onFenced(fenced);
    return refused.length ? refused : undefined;
  }

  async readStatus(position = 0): Promise<StatusRead<number>> {
    const { rows } = await this.read('SELECT id, record FROM troupe.status_log WHERE id > $1 ORDER BY id', [
      position,
    ]);
    const records: TaskStatusRecord[] = [];
    const warnings: StoreWarning[] = [];
    for (const row of rows) {
      const parsed = parseStatusRecord(row.record);
      if (parsed.ok) records.push(parsed.value);
      else
        warnings.push({
          code: parsed.code,
          message: `Status record ${row.id} in troupe.status_log: ${parsed.message}.`,
        });
    }
    const last = rows.at(-1);
    return { records, warnings, position: last ? Number(last.id) : position, restarted: false };
  }

  async readJournal(
    taskId: string,
  ): Promise<{ entries: StoredLine<JournalEntry>[]; warnings: StoreWarning[] }> {
    const { rows } = await this.read(
      'SELECT seq, entry FROM troupe.journal WHERE task_id = $1 ORDER BY seq',
      [taskId],
    );
    const entries: StoredLine<JournalEntry>[] = [];
    const warnings: StoreWarning[] = [];
    for (const row of rows) {
      const parsed = parseJournalEntry(row.entry);
      if (!parsed.ok) {
        // Entries after a damaged one would replay out of order: the journal ends here.
        warnings.push({
          code: parsed.code,
          message: `Task ${taskId}, journal entry ${row.seq}: ${parsed.message}.`,
        });
        break;
      }
      entries.push({ value: parsed.value });
    }
    return { entries, warnings };
  }

  async readSnapshot(taskId: string): Promise<TaskSnapshotDocument | undefined> {
    const { rows } = await this.read('SELECT document FROM troupe.snapshots WHERE task_id = $1', [taskId]);
    return rows[0] ? readable(parseSnapshotDocument(rows[0].document), taskId, 'snapshot') : undefined;
  }

  async readResult(taskId: string): Promise<TaskResultDocument | undefined> {
    const { rows } = await this.read('SELECT document FROM troupe.results WHERE task_id = $1', [taskId]);
    return rows[0] ? readable(parseResultDocument(rows[0].document), taskId, 'result') : undefined;
  }

  /** Removes the tasks' rows from every table, in one transaction. */
  async remove(taskIds: ReadonlySet<string>): Promise<void> {
    if (taskIds.size === 0) return;
    const ids = [...taskIds];
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      for (const table of ['tasks', 'status_log', 'journal', 'snapshots', 'results'])
        await client.query(`DELETE FROM troupe.${table} WHERE task_id = ANY($1)`, [ids]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  private read(text: string, values?: unknown[]): Promise<pg.QueryResult> {
    return readRows(this.pool, this.location, text, values);
  }
}

/** A parsed document, or a `PersistenceError` naming the task and the document. */
function readable<T>(parsed: Parsed<T>, taskId: string, what: string): T {
  if (parsed.ok) return parsed.value;
  throw new PersistenceError(parsed.code, `Task ${taskId}: its ${what} cannot be read: ${parsed.message}.`);
}
