import { PersistenceError } from '../errors.js';
import type {
  JournalEntry,
  TaskResultDocument,
  TaskSnapshotDocument,
  TaskStatusRecord,
} from '../persistence/types.js';
import type { MaybePromise, PortBatch, PortNotice, PortWrite, StoragePort } from './storage-port.js';

/** Told of each problem of a write (a failure, whose write is kept, or a refusal). */
type WriteReport = (error: PersistenceError) => void;

const isPromise = <T>(value: MaybePromise<T>): value is Promise<T> =>
  typeof (value as { then?: unknown } | undefined)?.then === 'function';

/** Runs `steps` in order; synchronously as long as none returns a promise. */
function inSequence(steps: readonly (() => MaybePromise<void>)[], from = 0): MaybePromise<void> {
  for (let index = from; index < steps.length; index++) {
    const done = (steps[index] as () => MaybePromise<void>)();
    if (isPromise(done)) return done.then(() => inSequence(steps, index + 1));
  }
}

function failure(location: string, error: unknown): PersistenceError {
  if (PersistenceError.isInstance(error)) return error;
  return new PersistenceError(
    'PERSISTENCE_FAILED',
    `Could not write to "${location}": ${(error as Error)?.message ?? String(error)}`,
    { path: location, cause: error },
  );
}

/**
 * The writes a store has accepted but not yet handed to its port, and the code that hands them
 * over: journals, then snapshots and results (only the latest snapshot per task is produced),
 * then status records (notices go with a batch only). A write the port fails stays buffered and is tried again next time; the
 * first error of each write is kept for the next `flush()`.
 */
export class PendingWrites {
  private status: TaskStatusRecord[] = [];
  private journals = new Map<string, JournalEntry[]>();
  private snapshots = new Map<string, () => TaskSnapshotDocument>();
  private results = new Map<string, TaskResultDocument>();
  private notices: PortNotice[] = [];

  constructor(private readonly port: StoragePort) {}

  get empty(): boolean {
    return (
      this.status.length === 0 &&
      this.journals.size === 0 &&
      this.snapshots.size === 0 &&
      this.results.size === 0 &&
      this.notices.length === 0
    );
  }

  /** Whether only snapshots and results wait (they may be written later than lines). */
  get onlyDocuments(): boolean {
    return this.status.length === 0 && this.journals.size === 0;
  }

  addStatus(record: TaskStatusRecord): void {
    this.status.push(record);
  }

  addJournal(taskId: string, entry: JournalEntry): void {
    const entries = this.journals.get(taskId);
    if (entries) entries.push(entry);
    else this.journals.set(taskId, [entry]);
  }

  addSnapshot(taskId: string, produce: () => TaskSnapshotDocument): void {
    this.snapshots.set(taskId, produce);
  }

  addResult(taskId: string, document: TaskResultDocument): void {
    this.results.set(taskId, document);
  }

  addNotice(notice: PortNotice): void {
    this.notices.push(notice);
  }

  /**
   * Hands the buffered writes to the port (with `documents`, snapshots and results too), and
   * reports problems to `report`. Synchronous when the port is.
   */
  write(documents: boolean, report: WriteReport): MaybePromise<void> {
    if (this.empty) return;
    const port = this.port;
    if (port.writeBatch) return this.writeBatch(port.writeBatch.bind(port), documents, report);
    const steps: (() => MaybePromise<void>)[] = [];
    const journals = this.journals;
    this.journals = new Map();
    for (const [taskId, entries] of journals)
      steps.push(() =>
        this.attempt(
          () => port.appendJournal(taskId, entries),
          () => this.addJournalFirst(taskId, entries),
          report,
        ),
      );
    if (documents) {
      const snapshots = this.snapshots;
      this.snapshots = new Map();
      for (const [taskId, produce] of snapshots)
        steps.push(() =>
          this.attempt(
            () => port.putSnapshot(taskId, produce),
            () => {
              if (!this.snapshots.has(taskId)) this.snapshots.set(taskId, produce);
            },
            report,
          ),
        );
      const results = this.results;
      this.results = new Map();
      for (const [taskId, document] of results)
        steps.push(() =>
          this.attempt(
            () => port.putResult(taskId, document),
            () => {
              if (!this.results.has(taskId)) this.results.set(taskId, document);
            },
            report,
          ),
        );
    }
    if (this.status.length > 0) {
      const records = this.status;
      this.status = [];
      steps.push(() =>
        this.attempt(
          () => port.appendStatus(records),
          () => {
            this.status = [...records, ...this.status];
          },
          report,
        ),
      );
    }
    // Notices ride a batch's transaction: a port that writes one by one has none, and drops them.
    this.notices = [];
    if (port.endFlush) {
      const end = port.endFlush.bind(port);
      steps.push(() => this.attempt(end, () => {}, report));
    }
    return inSequence(steps);
  }

  /** The whole flush in one port write; kept whole when it fails. */
  private writeBatch(
    write: (batch: PortBatch) => PortWrite,
    documents: boolean,
    report: WriteReport,
  ): MaybePromise<void> {
    const batch = {
      journals: this.journals,
      snapshots: documents ? this.snapshots : new Map<string, () => TaskSnapshotDocument>(),
      results: documents ? this.results : new Map<string, TaskResultDocument>(),
      statuses: this.status,
      notices: this.notices,
    };
    this.journals = new Map();
    this.status = [];
    this.notices = [];
    if (documents) {
      this.snapshots = new Map();
      this.results = new Map();
    }
    const end = this.port.endFlush?.bind(this.port);
    const written = this.attempt(
      () => write(batch),
      () => {
        for (const [taskId, entries] of batch.journals) this.addJournalFirst(taskId, entries);
        for (const [taskId, produce] of batch.snapshots)
          if (!this.snapshots.has(taskId)) this.snapshots.set(taskId, produce);
        for (const [taskId, document] of batch.results)
          if (!this.results.has(taskId)) this.results.set(taskId, document);
        this.status = [...batch.statuses, ...this.status];
        this.notices = [...batch.notices, ...this.notices];
      },
      report,
    );
    if (!end) return written;
    return inSequence([() => written, () => this.attempt(end, () => {}, report)]);
  }

  private addJournalFirst(taskId: string, entries: JournalEntry[]): void {
    const later = this.journals.get(taskId);
    this.journals.set(taskId, later ? [...entries, ...later] : entries);
  }

  /** One port write: refusals are reported, a failure is reported and the write kept. */
  private attempt(write: () => PortWrite, keep: () => void, report: WriteReport): MaybePromise<void> {
    const failed = (error: unknown) => {
      keep();
      report(failure(this.port.location, error));
    };
    const refused = (errors: undefined | readonly PersistenceError[]) => {
      for (const error of errors ?? []) report(error);
    };
    try {
      const outcome = write();
      if (isPromise(outcome)) return outcome.then(refused, failed);
      refused(outcome);
    } catch (error) {
      failed(error);
    }
  }
}
