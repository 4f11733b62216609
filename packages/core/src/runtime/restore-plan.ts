import type { AnyActorLogic } from 'xstate';
import { PersistenceError } from '../errors.js';
import type { SubagentEvent } from '../machines/subagent-events.js';
import { type SubagentInput, subagentMachine } from '../machines/subagent-machine.js';
import { armedDeadline, wantedEffect } from '../machines/wanted-effect.js';
import { describeThrown } from '../persistence/plain-json.js';
import { persistedSnapshotProblem } from '../persistence/subagent-snapshot-schema.js';
import { feedJournal } from '../persistence/task-documents.js';
import {
  type JournalEntry,
  SCHEMA_VERSION,
  type StoredTask,
  type StoreWarning,
  type TaskStore,
} from '../persistence/types.js';

/** How one unfinished task comes back: from its snapshot and the journal after it, or its whole journal. */
export interface RestorePlan {
  /** Logic starting from the persisted snapshot; undefined to start from scratch. */
  logic: AnyActorLogic | undefined;
  /** Journal events to feed (with effects off) before the driver takes over. */
  replay: SubagentEvent[];
  journalLength: number;
}

/** Neither the snapshot nor the journal of a task can be brought back: it must fail alone. */
export interface CorruptTask {
  corrupt: string;
}

/**
 * The store could not be reached for one task's documents (`PERSISTENCE_FAILED`: a lost connection,
 * a read error): nothing says they are bad, so the task stays unfinished for the next `restore()`.
 */
export interface UnavailableTask {
  unavailable: string;
}

/** True for an error that says the store failed, not that what it holds is bad. */
export function isStoreFailure(error: unknown): boolean {
  try {
    return PersistenceError.isInstance(error) && error.code === 'PERSISTENCE_FAILED';
  } catch {
    return false; // A thrown value that cannot even be inspected is no store's word.
  }
}

/** What the restore of one task needs besides the store: its fresh input and a warning sink. */
export interface RestoreContext {
  input: SubagentInput;
  warnings: StoreWarning[];
  /** A warning about one task, for the host (`runtime.warning`). */
  warn(code: 'PERSISTENCE_CORRUPT' | 'TASK_RESTARTED', message: string): void;
}

function where(store: TaskStore, taskId: string, kind: 'snapshot' | 'journal'): string {
  return store.locate?.(taskId, kind) ?? `the ${kind} of task ${taskId}`;
}

/**
 * Feeds `entries` through a fresh machine (from the persisted `snapshot`, if given) with no
 * effects, as the driver will, then reads the resulting snapshot as the driver does (the effect it
 * wants, its deadline). Returns why it failed (an unknown state, an event the machine cannot take,
 * an entry of another version, a context the driver cannot read), or undefined when it works.
 */
function rehearse(
  input: SubagentInput,
  entries: readonly JournalEntry[],
  snapshot?: unknown,
): string | undefined {
  let failure: unknown;
  try {
    const feed = feedJournal(input, snapshot === undefined ? {} : { snapshot });
    try {
      feed.feedWhileActive(entries);
      if (feed.failure === undefined && feed.active) {
        wantedEffect(feed.snapshot);
        armedDeadline(feed.snapshot);
      }
    } finally {
      feed.stop();
    }
    failure = feed.failure ?? (feed.snapshot.status === 'error' ? feed.snapshot.error : undefined);
  } catch (error) {
    failure = error;
  }
  return failure === undefined ? undefined : ((failure as Error)?.message ?? String(failure));
}

/**
 * Plans the restore of one task. A queued task starts from scratch. A running one starts from its
 * snapshot when the snapshot is readable, of this schema version, not ahead of the journal and
 * accepted by the machine together with the journal after it; otherwise its whole journal is fed
 * through a fresh machine (a warning says so). When the journal cannot be replayed either, the task
 * is {@link CorruptTask}: it fails alone with `PERSISTENCE_CORRUPT`, naming the files, and the
 * other tasks restore. A running task with neither snapshot nor journal restarts with a warning.
 * Every candidate plan is rehearsed first, so a corrupt store never throws out of `restore()`.
 */
export async function planRestore(
  store: TaskStore,
  task: StoredTask,
  context: RestoreContext,
): Promise<RestorePlan | CorruptTask | UnavailableTask> {
  if (task.status === 'queued') return { logic: undefined, replay: [], journalLength: 0 };
  const { input, warnings, warn } = context;
  const taskId = task.spec.taskId;
  let entries: JournalEntry[] = [];
  let journalProblem: string | undefined;
  try {
    const journal = await store.loadJournal(taskId);
    warnings.push(...journal.warnings);
    entries = journal.entries;
  } catch (error) {
    if (isStoreFailure(error)) return { unavailable: describeThrown(error) };
    journalProblem = describeThrown(error);
  }
  let snapshot: Awaited<ReturnType<TaskStore['loadSnapshot']>>;
  let snapshotProblem: string | undefined;
  try {
    snapshot = await store.loadSnapshot(taskId);
  } catch (error) {
    if (isStoreFailure(error)) return { unavailable: describeThrown(error) };
    snapshotProblem = `unreadable (${describeThrown(error)})`;
  }
  if (snapshot && snapshot.v === SCHEMA_VERSION) {
    const malformed = persistedSnapshotProblem(snapshot.snapshot);
    if (malformed !== undefined) snapshotProblem = `malformed: ${malformed}`;
    else if (snapshot.journalLength <= entries.length) {
      const after = entries.slice(snapshot.journalLength);
      snapshotProblem = rehearse(input, after, snapshot.snapshot);
      if (snapshotProblem === undefined)
        return {
          logic: restoredLogic(snapshot.snapshot),
          replay: eventsOf(after),
          journalLength: entries.length,
        };
    }
    // An unusable snapshot that covered more than the journal holds: the journal cannot stand in.
    if (
      snapshotProblem !== undefined &&
      journalProblem === undefined &&
      snapshot.journalLength > entries.length
    )
      journalProblem = `it holds ${entries.length} of the ${snapshot.journalLength} entries the snapshot covered`;
  }
  if (journalProblem === undefined) journalProblem = rehearse(input, entries);
  if (journalProblem !== undefined) {
    const message = `Task ${taskId} cannot be restored: ${where(store, taskId, 'journal')} cannot be replayed (${journalProblem})${snapshotProblem ? ` and ${where(store, taskId, 'snapshot')} is unusable (${snapshotProblem})` : ''}.`;
    warnings.push({ code: 'PERSISTENCE_CORRUPT', message });
    warn('PERSISTENCE_CORRUPT', message);
    return { corrupt: message };
  }
  if (snapshotProblem !== undefined) {
    const message = `Task ${taskId}: ${where(store, taskId, 'snapshot')} cannot be restored (${snapshotProblem}); rebuilding it from its journal.`;
    warnings.push({ code: 'PERSISTENCE_CORRUPT', message });
    warn('PERSISTENCE_CORRUPT', message);
  }
  if (entries.length === 0 && snapshot === undefined) {
    warn(
      'TASK_RESTARTED',
      `Task ${taskId} was ${task.status}, but its snapshot and journal are both gone: it starts again from scratch (a tool it already ran may run again).`,
    );
  }
  return { logic: undefined, replay: eventsOf(entries), journalLength: entries.length };
}

const eventsOf = (entries: readonly JournalEntry[]): SubagentEvent[] => entries.map((entry) => entry.event);

/** Subagent logic whose initial state is a persisted snapshot (XState's spawn takes no snapshot). */
function restoredLogic(persisted: unknown): AnyActorLogic {
  const logic = Object.create(subagentMachine) as typeof subagentMachine;
  logic.getInitialSnapshot = (actorScope) =>
    subagentMachine.restoreSnapshot(persisted as never, actorScope as never) as ReturnType<
      typeof subagentMachine.getInitialSnapshot
    >;
  return logic as unknown as AnyActorLogic;
}
