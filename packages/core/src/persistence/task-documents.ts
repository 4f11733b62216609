import { createActor, type InspectionEvent, type Observer } from 'xstate';
import { TroupeError } from '../errors.js';
import type { SubagentInput } from '../machines/subagent-context.js';
import type { SubagentEvent } from '../machines/subagent-events.js';
import { subagentMachine } from '../machines/subagent-machine.js';
import type { SubagentSnapshot } from '../runtime/subagent-snapshot.js';
import { isFinalStatus } from './statuses.js';
import { factsOf } from './task-facts.js';
import {
  type JournalEntry,
  SCHEMA_VERSION,
  type StoredTask,
  type TaskResult,
  type TaskResultDocument,
  type TaskSnapshotDocument,
  type TaskSpec,
  type TaskStatusRecord,
  type TaskSummary,
} from './types.js';

// A task's documents, in one place: the status records of its life, the journal of the events
// its machine consumed, its latest snapshot and its result. Every document troupe writes is made
// here (the one place that stamps `v: SCHEMA_VERSION`); the status log is folded here; and a
// journal is fed back through a fresh machine here, for a replay, a follower, a restore's
// rehearsal and a transcript alike. Parsing what a store read is `parse-documents.ts`.

// ── Making documents ───────────────────────────────────────────────────────────────────────────

/** The `task.queued` record: it creates the task in the store and carries its spec. */
export function queuedRecord(spec: TaskSpec): TaskStatusRecord {
  return {
    v: SCHEMA_VERSION,
    taskId: spec.taskId,
    event: 'task.queued',
    status: 'queued',
    at: spec.createdAt,
    spec,
  };
}

/** A status record of a task that has not ended; its status follows from the event. */
export function statusRecord(
  taskId: string,
  event: 'task.started' | 'task.resumed' | 'task.awaitingApproval',
  at: number,
): TaskStatusRecord {
  const status = event === 'task.awaitingApproval' ? 'awaitingApproval' : 'running';
  return { v: SCHEMA_VERSION, taskId, event, status, at };
}

/** The final status record of a task (`task.completed`, `task.failed`, `task.cancelled`), carrying its result. */
export function finalRecord(result: TaskResult, at: number): TaskStatusRecord {
  const status = result.status;
  return { v: SCHEMA_VERSION, taskId: result.taskId, event: `task.${status}`, status, at, result };
}

/** The result document of a finished task. */
export function resultDocument(result: TaskResult): TaskResultDocument {
  return { v: SCHEMA_VERSION, result };
}

/** Journal entry `seq` (0-based): exactly the event fed to the task's machine. */
export function journalEntry(seq: number, event: SubagentEvent): JournalEntry {
  return { v: SCHEMA_VERSION, seq, event };
}

/** A snapshot document: the machine's persisted snapshot and the journal length it reflects. */
export function snapshotDocument(
  taskId: string,
  snapshot: SubagentSnapshot,
  journalLength: number,
): TaskSnapshotDocument {
  return {
    v: SCHEMA_VERSION,
    taskId,
    journalLength,
    savedAt: snapshot.context.now,
    snapshot: subagentMachine.getPersistedSnapshot(snapshot),
  };
}

// ── Folding the status log ─────────────────────────────────────────────────────────────────────

/**
 * Applies one status record to the tasks folded so far, in place. The record with a `spec`
 * creates the task (a second one is ignored); later records update its status, time and result.
 * Records of unknown tasks (pruned ones) are ignored, and a final status is never replaced.
 * Returns the task's new state, or undefined when the record changed nothing.
 */
export function applyStatusRecord(
  tasks: Map<string, StoredTask>,
  record: TaskStatusRecord,
): StoredTask | undefined {
  const existing = tasks.get(record.taskId);
  if (record.spec) {
    if (existing) return undefined;
    const created: StoredTask = { spec: record.spec, status: record.status, updatedAt: record.at };
    tasks.set(record.taskId, created);
    return created;
  }
  if (!existing || isFinalStatus(existing.status)) return undefined;
  const updated: StoredTask = { spec: existing.spec, status: record.status, updatedAt: record.at };
  const result = record.result ?? existing.result;
  if (result) updated.result = result;
  tasks.set(record.taskId, updated);
  return updated;
}

/** Folds a status log into one {@link StoredTask} per task, in first-seen order. */
export function foldStatusRecords(records: Iterable<TaskStatusRecord>): Map<string, StoredTask> {
  const tasks = new Map<string, StoredTask>();
  for (const record of records) applyStatusRecord(tasks, record);
  return tasks;
}

/** A stored task without its conversation: what `listTasks` returns. */
export function summaryOf(task: StoredTask): TaskSummary {
  const summary: TaskSummary = { ...factsOf(task.spec), status: task.status, updatedAt: task.updatedAt };
  if (task.result) summary.result = task.result;
  return summary;
}

// ── Feeding a journal through a fresh machine ─────────────────────────────────────────────────

/** Options of {@link feedJournal}. */
export interface JournalFeedOptions {
  /** A persisted machine snapshot to start from (the journal after it is fed); else the input's initial state. */
  snapshot?: unknown;
  /** Attach an inspector (e.g. `@statelyai/inspect`) to watch each fed event. */
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
}

/** A fresh subagent actor that a task's journal is fed through; see {@link feedJournal}. */
export interface JournalFeed {
  /** The snapshot before any entry was fed. */
  readonly initial: SubagentSnapshot;
  /** The snapshot now. */
  readonly snapshot: SubagentSnapshot;
  /** True while the machine takes events (not final, not in error, not stopped). */
  readonly active: boolean;
  /** What the machine threw on an event it could not take (its status is then `error`), if anything. */
  readonly failure: unknown;
  /** How many entries were fed so far. */
  readonly fed: number;
  /**
   * Feeds one entry, whatever the machine's state (a final machine ignores it), and returns the
   * snapshot it led to. Throws a `TroupeError` naming the task and the entry for an entry of another
   * schema version (`PERSISTENCE_VERSION`) or an event without a type (`PERSISTENCE_CORRUPT`);
   * nothing is fed then.
   */
  feed(entry: JournalEntry): SubagentSnapshot;
  /** Feeds `entries` in order until the machine is no longer active; returns how many it fed. */
  feedWhileActive(entries: Iterable<JournalEntry>): number;
  /** Stops the actor. */
  stop(): void;
}

/**
 * Starts a fresh subagent actor for the task `input` describes, to feed its journal through: the
 * one way a journal is read back (replay, following a task in another process, restore's rehearsal,
 * a transcript). The journal stands in for the model, the tools, the host and the clock: nothing
 * is called, run or read. An error the machine throws is kept in `failure`, never thrown. Throws
 * what XState throws for a persisted `snapshot` it cannot restore.
 */
export function feedJournal(input: SubagentInput, options: JournalFeedOptions = {}): JournalFeed {
  const actor = createActor(subagentMachine, {
    input,
    ...(options.snapshot !== undefined ? { snapshot: options.snapshot as never } : {}),
    ...(options.inspect ? { inspect: options.inspect } : {}),
  });
  let failure: unknown;
  let fed = 0;
  actor.subscribe({ error: (error) => (failure ??= error) });
  actor.start();
  const initial = actor.getSnapshot();
  const taskId = input.taskId;
  const feed = (entry: JournalEntry): SubagentSnapshot => {
    if (entry.v !== SCHEMA_VERSION)
      throw new TroupeError(
        'PERSISTENCE_VERSION',
        `Task ${taskId}: journal entry ${entry.seq} has schema version ${entry.v}; this troupe reads version ${SCHEMA_VERSION}.`,
      );
    const event: unknown = entry.event;
    if (typeof event !== 'object' || event === null || typeof (event as { type?: unknown }).type !== 'string')
      throw new TroupeError(
        'PERSISTENCE_CORRUPT',
        `Task ${taskId}: journal entry ${entry.seq} holds no event with a type (${JSON.stringify(event)?.slice(0, 80)}).`,
      );
    actor.send(entry.event);
    fed++;
    return actor.getSnapshot();
  };
  const isActive = () => failure === undefined && actor.getSnapshot().status === 'active';
  return {
    initial,
    get snapshot() {
      return actor.getSnapshot();
    },
    get active() {
      return isActive();
    },
    get failure() {
      return failure;
    },
    get fed() {
      return fed;
    },
    feed,
    feedWhileActive(entries) {
      const before = fed;
      for (const entry of entries) {
        if (!isActive()) break;
        feed(entry);
      }
      return fed - before;
    },
    stop() {
      actor.stop();
    },
  };
}
