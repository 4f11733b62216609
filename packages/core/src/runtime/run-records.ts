import type { SubagentEvent } from '../machines/subagent-events.js';
import { describeThrown } from '../persistence/plain-json.js';
import {
  finalRecord,
  journalEntry,
  resultDocument,
  snapshotDocument,
  statusRecord,
} from '../persistence/task-documents.js';
import type { TaskResult, TaskSnapshotDocument } from '../persistence/types.js';
import type { RunHost } from './run-host.js';
import type { SubagentSnapshot } from './subagent-snapshot.js';

/**
 * What a task's run writes to its store, as it runs: its journal (numbered on from what is stored
 * already), its snapshot document, its status records and, as it ends, its result and final record.
 * Every document is made by `task-documents.ts`. A store that throws never stops the task (it would
 * never end): the write is a `PERSISTENCE_FAILED` warning naming the task and what was lost.
 */
export class RunRecords {
  /** The next journal entry's number. */
  private seq: number;
  /** The snapshot the latest document is made of (made when the store asks, at its next flush). */
  private latest: SubagentSnapshot | undefined;
  /**
   * Makes the latest snapshot document. A store may call it late (at its next flush): the run is
   * then between events, so the snapshot and the journal length agree. Made at the first snapshot,
   * let go at the final one.
   */
  private produce: (() => TaskSnapshotDocument) | undefined;

  constructor(
    private readonly host: Pick<RunHost, 'store' | 'clock' | 'emitter'>,
    private readonly taskId: string,
    journalLength: number,
  ) {
    this.seq = journalLength;
  }

  /** Journals an event the task's actor is about to receive. */
  journal(event: SubagentEvent): void {
    const entry = journalEntry(this.seq++, event);
    this.write(`journal ${event.type} (entry ${entry.seq})`, ', but its journal misses this entry', () =>
      this.host.store.appendJournal(this.taskId, entry),
    );
  }

  /** Saves the snapshot the actor reported (`final`: its last, made now and kept alone). */
  snapshot(snapshot: SubagentSnapshot, final: boolean): void {
    this.latest = final ? undefined : snapshot;
    if (final) this.produce = undefined;
    else this.produce ??= () => snapshotDocument(this.taskId, this.latest!, this.seq);
    const produce = this.produce ?? finalDocument(this.taskId, snapshot, this.seq);
    this.write('save the snapshot', '; a restore reads its journal', () =>
      this.host.store.saveSnapshot(this.taskId, produce),
    );
  }

  /** Records a status the task's state entered. */
  status(event: 'task.started' | 'task.resumed' | 'task.awaitingApproval'): void {
    const record = statusRecord(this.taskId, event, this.host.clock.now());
    this.write(`record ${event}`, undefined, () => this.host.store.appendStatus(record));
  }

  /** Stores the task's result and its final status record, made at `at`. */
  end(result: TaskResult, at: number): void {
    const { store } = this.host;
    this.write('save the result', undefined, () => store.saveResult(resultDocument(result)));
    this.write(`record task.${result.status}`, undefined, () => store.appendStatus(finalRecord(result, at)));
  }

  /** A store write: one that throws is a warning saying what was not written and what it costs (`lost`). */
  private write(what: string, lost: string | undefined, write: () => void): void {
    try {
      write();
    } catch (error) {
      this.host.emitter.emit('runtime.warning', {
        code: 'PERSISTENCE_FAILED',
        message: `The store could not ${what} of task ${this.taskId}: ${describeThrown(error)}. The task goes on${lost ?? ''}.`,
        taskId: this.taskId,
      });
    }
  }
}

/**
 * The final snapshot document, produced when a store asks. Made outside the records so that the
 * closure a store keeps captures the snapshot alone, never the run and its actor.
 */
function finalDocument(taskId: string, snapshot: SubagentSnapshot, journalLength: number) {
  return () => snapshotDocument(taskId, snapshot, journalLength);
}
