import type { AnyActorLogic } from 'xstate';
import { PersistenceError } from '../errors.js';
import {
  type SubagentContext,
  type SubagentInput,
  type SubagentMachine,
  subagentMachine,
} from '../machines/subagent-machine.js';
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

/**
 * How one unfinished task comes back: the state its snapshot and the journal after it (or its whole
 * journal) lead to, reached with the pure machine (no effect runs on the way).
 */
export interface RestorePlan {
  /** The persisted snapshot to resume from; undefined to start from scratch. */
  snapshot: unknown;
  /** Journal entries it reflects: the next event is journaled with this `seq`. */
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
 * Feeds `entries` through a fresh machine (from the persisted `snapshot`, if given, with the effects
 * its state invokes) with the pure machine's effects (none run), and returns the persisted snapshot
 * it reaches, or why it failed (an unknown state, an event the machine cannot take, an entry of
 * another version, a context the effects cannot be derived from).
 */
function rehearse(
  input: SubagentInput,
  entries: readonly JournalEntry[],
  snapshot?: unknown,
): { snapshot: unknown } | { problem: string } {
  let failure: unknown;
  try {
    const from = snapshot === undefined ? {} : { snapshot: withEffects(subagentMachine, snapshot) };
    const feed = feedJournal(input, from);
    let reached: unknown;
    try {
      feed.feedWhileActive(entries);
      if (feed.failure === undefined && feed.snapshot.status !== 'error') {
        reached = subagentMachine.getPersistedSnapshot(feed.snapshot);
        effectChildren(subagentMachine, reached);
      }
    } finally {
      feed.stop();
    }
    failure = feed.failure ?? (feed.snapshot.status === 'error' ? feed.snapshot.error : undefined);
    if (failure === undefined) return { snapshot: reached };
  } catch (error) {
    failure = error;
  }
  return { problem: (failure as Error)?.message ?? String(failure) };
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
  if (task.status === 'queued') return { snapshot: undefined, journalLength: 0 };
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
      const rehearsed = rehearse(input, entries.slice(snapshot.journalLength), snapshot.snapshot);
      if ('snapshot' in rehearsed) return { snapshot: rehearsed.snapshot, journalLength: entries.length };
      snapshotProblem = rehearsed.problem;
    }
    // An unusable snapshot that covered more than the journal holds: the journal cannot stand in.
    if (
      snapshotProblem !== undefined &&
      journalProblem === undefined &&
      snapshot.journalLength > entries.length
    )
      journalProblem = `it holds ${entries.length} of the ${snapshot.journalLength} entries the snapshot covered`;
  }
  let fromJournal: unknown;
  if (journalProblem === undefined) {
    const rehearsed = rehearse(input, entries);
    if ('snapshot' in rehearsed) fromJournal = rehearsed.snapshot;
    else journalProblem = rehearsed.problem;
  }
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
  return { snapshot: entries.length ? fromJournal : undefined, journalLength: entries.length };
}

/** `persisted` with the effects its state invokes as its children (the document's own are ignored). */
function withEffects(machine: SubagentMachine, persisted: unknown): object {
  return { ...(persisted as object), children: effectChildren(machine, persisted) };
}

/**
 * Logic of `machine` whose initial state is the persisted snapshot `persisted` (XState's spawn takes
 * no snapshot). Its effects are those its state invokes, derived from the state and never read
 * from the document ({@link effectChildren}): so XState starts them as the actor starts — the
 * model call issued again, the next tool call run (a write that had started is answered
 * "interrupted"), the approval asked again, the deadline re-armed — whatever wrote the document.
 */
export function restoredLogic(machine: SubagentMachine, persisted: unknown): AnyActorLogic {
  const resumed = withEffects(machine, persisted);
  const logic = Object.create(machine) as SubagentMachine;
  logic.getInitialSnapshot = (actorScope) =>
    machine.restoreSnapshot(resumed as never, actorScope as never) as ReturnType<
      SubagentMachine['getInitialSnapshot']
    >;
  return logic as unknown as AnyActorLogic;
}

/**
 * The children a persisted subagent snapshot's state invokes, as XState persists them: one per
 * `invoke` of `running` and of its active state, with the input the state gives it now. Throws when the
 * context is not one the inputs can be read from.
 */
export function effectChildren(machine: SubagentMachine, persisted: unknown): Record<string, unknown> {
  const { value, context } = persisted as { value: unknown; context: SubagentContext };
  const children: Record<string, unknown> = {};
  if (typeof value !== 'object' || value === null) return children;
  const phase = (value as { running?: unknown }).running;
  const running = machine.root.states.running;
  const node = typeof phase === 'string' ? running?.states[phase] : undefined;
  if (!node) return children;
  for (const invoke of [...running!.invoke, ...node.invoke]) {
    const input =
      typeof invoke.input === 'function'
        ? (invoke.input as (args: { context: SubagentContext }) => unknown)({ context })
        : invoke.input;
    children[invoke.id] = {
      snapshot: { status: 'active', output: undefined, error: undefined, input },
      src: invoke.src,
      systemId: invoke.systemId,
      syncSnapshot: false,
    };
  }
  return children;
}
