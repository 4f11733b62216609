import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  type JournalEntry,
  PersistenceError,
  type StoredTask,
  type StoreWarning,
  type TaskPage,
  type TaskQuery,
  type TaskResult,
  type TaskResultDocument,
  type TaskSnapshotDocument,
  type TaskStatusRecord,
  type TaskStore,
} from '@troupe/core';
import { type Parsed, pageOfTasks } from '@troupe/core/store';
import { PendingWrites } from './pending-writes.js';
import { pruneStore } from './prune-store.js';
import { readJsonLines } from './read-json-lines.js';
import { readRegularFile } from './regular-files.js';
import { takeRestoreLock } from './restore-lock.js';
import { StatusIndex } from './status-index.js';
import {
  foldStatusLines,
  parseJournalLine,
  parseResultText,
  parseSnapshotText,
  parseStatusLine,
  unfinishedTasksRunElsewhere,
} from './status-log.js';
import { checkTaskId, type StorePaths, storePaths } from './task-file-names.js';
import { describeOwner, StoreRunner, type TaskOwner } from './task-owner.js';

/** Options of {@link createFileStore}. */
export interface FileStoreOptions {
  /** Directory of the store (created on first write). Default `~/.troupe/tasks`. */
  dir?: string;
  /**
   * `batched` (default): writes are buffered and written together shortly after (see
   * `flushDelayMs`), or at `flush()`. `sync`: every call writes through before it returns.
   */
  durability?: 'batched' | 'sync';
  /**
   * Delay before buffered status and journal lines are written, in ms; 0 (default) = the next
   * event-loop turn.
   */
  flushDelayMs?: number;
  /**
   * Delay before buffered snapshots and results are written, in ms (default 100): snapshots saved
   * meanwhile coalesce, so a task that runs many turns a second writes a few documents, not one per
   * turn. The journal, written with the lines, holds every step in between. 0 = with the lines.
   */
  snapshotDelayMs?: number;
  /** fsync files (and the directory after renames) so that writes survive a power loss. Default false. */
  fsync?: boolean;
  /** How long finished tasks are kept by `pruneExpired()` and argument-less `prune()`, in ms. Default 7 days. */
  retentionMs?: number;
  /** Age after which a prune lock left by another process is taken over, in ms. Default 60,000. */
  lockStaleMs?: number;
  /** The clock retention is measured with. Default `Date.now`. */
  now?: () => number;
}

/** A {@link TaskStore} over a directory of files; see {@link createFileStore}. */
export interface FileStore extends TaskStore {
  /** The store directory, absolute. */
  readonly dir: string;
  /** Removes finished tasks that ended before `olderThan` (default: now − `retentionMs`). */
  prune(options?: { olderThan?: number }): Promise<number>;
  /** Removes finished tasks older than the retention period. */
  pruneExpired(): Promise<number>;
  /**
   * Takes `restore.lock` in the directory for this process until `close()` (or exit): a second
   * runtime's `restore()` on the directory is refused with `PERSISTENCE_LOCKED` naming this
   * process. A lock left by a dead process on this host is taken over, with a warning.
   */
  lockForRestore(): Promise<{ warnings: StoreWarning[] }>;
  /**
   * Which of `taskIds` another live runtime still runs (see `TaskStore.tasksRunElsewhere`), from
   * the store's index of the status log: costs the lines appended since the last read.
   */
  tasksRunElsewhere(taskIds: readonly string[]): Promise<string[]>;
  close(): Promise<void>;
}

/** Seven days, in ms. */
export const DEFAULT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** Stores with writes not yet on disk, flushed if the process exits first. */
const unflushed = new Set<FileTaskStore>();
let exitHookInstalled = false;

class FileTaskStore implements FileStore {
  readonly dir: string;
  private readonly paths: StorePaths;
  private readonly durability: 'batched' | 'sync';
  private readonly flushDelayMs: number;
  private readonly snapshotDelayMs: number;
  private readonly fsync: boolean;
  private readonly retentionMs: number;
  private readonly lockStaleMs: number;
  private readonly now: () => number;

  private readonly pending: PendingWrites;
  /** `tasks.jsonl` folded, read incrementally: what `listTasks` and `getTask` answer from. */
  private readonly index: StatusIndex;
  /** Who this store's status records say runs their tasks (until `close()`). */
  private readonly runner: StoreRunner;
  private linesTimer: NodeJS.Immediate | NodeJS.Timeout | undefined;
  private documentsTimer: NodeJS.Timeout | undefined;
  private failure: PersistenceError | undefined;
  private closed = false;
  private restoreLock: { release(): void } | undefined;

  constructor(options: FileStoreOptions) {
    this.dir = resolve(options.dir ?? join(homedir(), '.troupe', 'tasks'));
    this.paths = storePaths(this.dir);
    this.fsync = options.fsync ?? false;
    this.pending = new PendingWrites(this.paths, this.fsync);
    this.index = new StatusIndex(this.paths.tasks);
    this.runner = new StoreRunner(this.dir);
    this.durability = options.durability ?? 'batched';
    if (this.durability !== 'batched' && this.durability !== 'sync') {
      throw new RangeError(
        `File store durability must be 'batched' or 'sync'; got ${JSON.stringify(this.durability)}.`,
      );
    }
    this.flushDelayMs = options.flushDelayMs ?? 0;
    this.snapshotDelayMs = options.snapshotDelayMs ?? 100;
    this.retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
    this.lockStaleMs = options.lockStaleMs ?? 60_000;
    this.now = options.now ?? Date.now;
    for (const [name, value] of Object.entries({
      flushDelayMs: this.flushDelayMs,
      snapshotDelayMs: this.snapshotDelayMs,
      retentionMs: this.retentionMs,
    })) {
      if (!Number.isFinite(value) || value < 0) {
        throw new RangeError(`File store option ${name} must be a number ≥ 0; got ${String(value)}.`);
      }
    }
  }

  appendStatus(record: TaskStatusRecord): void {
    this.assertOpen();
    checkTaskId(record.taskId, this.dir);
    // Stamped with this process, so that a restore elsewhere leaves the tasks this process runs.
    const stamped: TaskStatusRecord & { owner: TaskOwner } = { ...record, owner: this.runner.claim() };
    this.pending.status(stamped);
    this.schedule(false);
  }

  appendJournal(taskId: string, entry: JournalEntry): void {
    this.assertOpen();
    checkTaskId(taskId, this.dir);
    this.pending.journal(taskId, entry);
    this.schedule(false);
  }

  saveSnapshot(taskId: string, produce: () => TaskSnapshotDocument): void {
    this.assertOpen();
    checkTaskId(taskId, this.dir);
    this.pending.snapshot(taskId, produce);
    this.schedule(true);
  }

  saveResult(document: TaskResultDocument): void {
    this.assertOpen();
    const taskId = checkTaskId(document.result?.taskId, this.dir);
    this.pending.result(taskId, document);
    this.schedule(true);
  }

  async flush(): Promise<void> {
    this.flushNow();
    const failure = this.failure;
    this.failure = undefined;
    if (failure) throw failure;
  }

  async loadTasks(): Promise<{ tasks: StoredTask[]; warnings: StoreWarning[] }> {
    this.flushNow();
    const { lines, warnings } = await readJsonLines(this.paths.tasks, parseStatusLine);
    return { tasks: [...foldStatusLines(lines).values()], warnings };
  }

  async listTasks(query: TaskQuery = {}): Promise<TaskPage> {
    this.flushNow();
    return pageOfTasks(await this.index.all(), query);
  }

  async getTask(taskId: string): Promise<StoredTask | undefined> {
    this.flushNow();
    return this.index.get(taskId);
  }

  async loadJournal(taskId: string): Promise<{ entries: JournalEntry[]; warnings: StoreWarning[] }> {
    checkTaskId(taskId, this.dir);
    this.flushNow();
    const path = this.paths.journal(taskId);
    const { lines, warnings } = await readJsonLines(path, parseJournalLine);
    const entries: JournalEntry[] = [];
    for (const { value, line } of lines) {
      if (value.seq === entries.length) {
        entries.push(value);
        continue;
      }
      const problem =
        value.seq < entries.length
          ? `seq ${value.seq} repeats an earlier entry; the line was skipped.`
          : `seq ${value.seq} follows seq ${entries.length - 1}: entries are missing, so this line and the rest of the journal were skipped.`;
      warnings.push({ code: 'PERSISTENCE_CORRUPT', message: `${path}:${line}: ${problem}`, path, line });
      if (value.seq > entries.length) break;
    }
    warnings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    return { entries, warnings };
  }

  locate(taskId: string, kind: 'snapshot' | 'journal'): string {
    return kind === 'snapshot' ? this.paths.snapshot(taskId) : this.paths.journal(taskId);
  }

  async loadSnapshot(taskId: string): Promise<TaskSnapshotDocument | undefined> {
    checkTaskId(taskId, this.dir);
    this.flushNow();
    const document = await this.readDocument(this.paths.snapshot(taskId), parseSnapshotText);
    if (document && document.taskId !== taskId) {
      throw new PersistenceError(
        'PERSISTENCE_CORRUPT',
        `${this.paths.snapshot(taskId)}: the snapshot belongs to task ${document.taskId}, not ${taskId}.`,
        {
          path: this.paths.snapshot(taskId),
        },
      );
    }
    return document;
  }

  async loadResult(taskId: string): Promise<TaskResult | undefined> {
    checkTaskId(taskId, this.dir);
    this.flushNow();
    const document = await this.readDocument(this.paths.result(taskId), parseResultText);
    if (document && document.result.taskId !== taskId) {
      throw new PersistenceError(
        'PERSISTENCE_CORRUPT',
        `${this.paths.result(taskId)}: the result belongs to task ${document.result.taskId}, not ${taskId}.`,
        {
          path: this.paths.result(taskId),
        },
      );
    }
    return document?.result;
  }

  async lockForRestore(): Promise<{ warnings: StoreWarning[]; runElsewhere: string[] }> {
    this.assertOpen();
    let warnings: StoreWarning[] = [];
    if (!this.restoreLock) {
      const taken = takeRestoreLock(this.paths);
      this.restoreLock = { release: taken.release };
      warnings = taken.warnings;
    }
    this.flushNow();
    const { lines } = await readJsonLines(this.paths.tasks, parseStatusLine);
    const elsewhere = unfinishedTasksRunElsewhere(lines, this.runner);
    for (const [taskId, owner] of elsewhere)
      warnings.push({
        code: 'PERSISTENCE_TASK_OWNED',
        message: `Task ${taskId} is not resumed: ${describeOwner(owner)}, which runs it, is still running (${this.paths.tasks}).`,
        path: this.paths.tasks,
      });
    return { warnings, runElsewhere: [...elsewhere.keys()] };
  }

  /**
   * Which of `taskIds` another live runtime still runs (see `lockForRestore`), from the index of
   * the status log: costs the lines appended since the last read, not the whole log.
   */
  async tasksRunElsewhere(taskIds: readonly string[]): Promise<string[]> {
    this.flushNow();
    const owners = await this.index.unfinishedOwners();
    return taskIds.filter((taskId) => {
      const owner = owners.get(taskId);
      return owner !== undefined && this.runner.runsElsewhere(owner);
    });
  }

  async prune(options: { olderThan?: number } = {}): Promise<number> {
    const olderThan = options.olderThan ?? this.now() - this.retentionMs;
    if (!Number.isFinite(olderThan)) {
      throw new RangeError(
        `prune({ olderThan }) needs a time in ms since the epoch; got ${String(olderThan)}.`,
      );
    }
    this.flushNow();
    return pruneStore(this.paths, { olderThan, lockStaleMs: this.lockStaleMs, fsync: this.fsync });
  }

  pruneExpired(): Promise<number> {
    return this.prune();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush().finally(() => {
      this.closed = true;
      this.runner.release();
      this.restoreLock?.release();
      this.restoreLock = undefined;
    });
  }

  /** Writes everything buffered, synchronously. Failures are kept for the next `flush()`. */
  flushNow(): void {
    if (this.linesTimer !== undefined) {
      // Each kind must be cleared by its own function: clearImmediate on a Timeout corrupts Node's queue.
      if (this.flushDelayMs > 0) clearTimeout(this.linesTimer as NodeJS.Timeout);
      else clearImmediate(this.linesTimer as NodeJS.Immediate);
      this.linesTimer = undefined;
    }
    clearTimeout(this.documentsTimer);
    this.documentsTimer = undefined;
    unflushed.delete(this);
    this.keep(this.pending.write(true));
  }

  /** The background write of lines (and of documents when they are not delayed). */
  private flushLines(): void {
    this.linesTimer = undefined;
    this.keep(this.pending.write(this.snapshotDelayMs === 0));
    if (this.pending.empty) unflushed.delete(this);
  }

  private keep(error: PersistenceError | undefined): void {
    if (error) this.failure ??= error;
  }

  private async readDocument<T>(path: string, parse: (text: string) => Parsed<T>): Promise<T | undefined> {
    let text: string | undefined;
    try {
      text = await readRegularFile(path);
    } catch (error) {
      if (PersistenceError.isInstance(error)) throw error;
      throw new PersistenceError(
        'PERSISTENCE_FAILED',
        `Could not read "${path}": ${(error as Error).message}`,
        { path, cause: error },
      );
    }
    if (text === undefined) return undefined;
    const parsed = parse(text);
    if (!parsed.ok) throw new PersistenceError(parsed.code, `${path}: ${parsed.message}.`, { path });
    return parsed.value;
  }

  private schedule(documents: boolean): void {
    if (this.durability === 'sync') {
      this.flushNow();
      return;
    }
    unflushed.add(this);
    installExitHook();
    if (documents && this.snapshotDelayMs > 0) {
      // Unreferenced: a process that is otherwise done exits at once; the exit hook writes them.
      this.documentsTimer ??= setTimeout(() => this.flushNow(), this.snapshotDelayMs).unref();
      return;
    }
    this.linesTimer ??=
      this.flushDelayMs > 0
        ? setTimeout(() => this.flushLines(), this.flushDelayMs)
        : setImmediate(() => this.flushLines());
  }

  private assertOpen(): void {
    if (this.closed) {
      throw new PersistenceError(
        'PERSISTENCE_FAILED',
        `The task store at "${this.dir}" is closed; writes are refused.`,
        { path: this.dir },
      );
    }
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const store of unflushed) store.flushNow();
  });
}

/**
 * A durable {@link TaskStore} over a directory: `tasks.jsonl` (the append-only status log), and per
 * task `<taskId>.json` (result), `<taskId>.snapshot.json` (latest snapshot) and
 * `<taskId>.journal.jsonl` (journal). Writes are buffered and batched (only the latest snapshot
 * per task is produced and written), appended as whole lines, and documents are replaced
 * atomically. Several processes may share a directory; see the package README for the rules.
 * Throws a `RangeError` for invalid options; write calls throw a `ValidationError` for a task id
 * that cannot name a file.
 */
export function createFileStore(options: FileStoreOptions = {}): FileStore {
  return new FileTaskStore(options);
}
