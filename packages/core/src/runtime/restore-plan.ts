import type { AnyActorLogic } from 'xstate';
import type { SubagentEvent } from '../machines/subagent-events.js';
import { subagentMachine } from '../machines/subagent-machine.js';
import { SCHEMA_VERSION, type StoredTask, type StoreWarning, type TaskStore } from '../persistence/types.js';

/** How one unfinished task comes back: from its snapshot and the journal after it, or its whole journal. */
export interface RestorePlan {
  /** Logic starting from the persisted snapshot; undefined to start from scratch. */
  logic: AnyActorLogic | undefined;
  /** Journal events to feed (with effects off) before the driver takes over. */
  replay: SubagentEvent[];
  journalLength: number;
}

/**
 * Plans the restore of one task. A queued task starts from scratch. A running one starts from its
 * snapshot when the snapshot is readable, of this schema version and not ahead of the journal;
 * otherwise its whole journal is fed through a fresh machine (a warning says so).
 */
export async function planRestore(
  store: TaskStore,
  task: StoredTask,
  warnings: StoreWarning[],
): Promise<RestorePlan> {
  if (task.status === 'queued') return { logic: undefined, replay: [], journalLength: 0 };
  const taskId = task.spec.taskId;
  const journal = await store.loadJournal(taskId);
  warnings.push(...journal.warnings);
  const events = journal.entries.map((entry) => entry.event);
  let snapshot: Awaited<ReturnType<TaskStore['loadSnapshot']>>;
  try {
    snapshot = await store.loadSnapshot(taskId);
  } catch (error) {
    warnings.push({
      code: 'PERSISTENCE_CORRUPT',
      message: `Task ${taskId}: snapshot unreadable (${(error as Error).message}); rebuilt from its journal.`,
    });
  }
  if (snapshot && snapshot.v === SCHEMA_VERSION && snapshot.journalLength <= events.length) {
    return {
      logic: restoredLogic(snapshot.snapshot),
      replay: events.slice(snapshot.journalLength),
      journalLength: events.length,
    };
  }
  return { logic: undefined, replay: events, journalLength: events.length };
}

/** Subagent logic whose initial state is a persisted snapshot (XState's spawn takes no snapshot). */
function restoredLogic(persisted: unknown): AnyActorLogic {
  const logic = Object.create(subagentMachine) as typeof subagentMachine;
  logic.getInitialSnapshot = (actorScope) =>
    subagentMachine.restoreSnapshot(persisted as never, actorScope as never) as ReturnType<
      typeof subagentMachine.getInitialSnapshot
    >;
  return logic as unknown as AnyActorLogic;
}
