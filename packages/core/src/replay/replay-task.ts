import type { InspectionEvent, Observer, SnapshotFrom } from 'xstate';
import { TroupeError } from '../errors.js';
import type { SubagentEvent } from '../machines/subagent-events.js';
import type { SubagentMachine } from '../machines/subagent-machine.js';
import { exceedsDocumentBounds } from '../persistence/document-bounds.js';
import { machineInputFromSpec } from '../persistence/machine-input.js';
import { describeThrown } from '../persistence/plain-json.js';
import { feedJournal } from '../persistence/task-documents.js';
import type { JournalEntry, TaskResult, TaskSnapshotDocument, TaskStore } from '../persistence/types.js';
import { toResult } from '../runtime/task-results.js';
import { checkReplay, type ReplayDifference } from './check-replay.js';
import { describeDifference } from './describe-difference.js';

/** One replayed step: the journal event and the state it led to. */
export interface ReplayStep {
  seq: number;
  event: SubagentEvent;
  snapshot: SnapshotFrom<SubagentMachine>;
}

/** Options of {@link replayTask}. */
export interface ReplayOptions {
  /** Attach an inspector (e.g. `@statelyai/inspect`) to watch the replay step by step. */
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
  /** Called after each step; return a promise to pace the replay (e.g. for a UI). */
  onStep?: (step: ReplayStep) => void | Promise<void>;
  /**
   * Stop after this many journal entries (to look at an intermediate state). A replay stopped
   * before the stored snapshot's entries is not compared with it (see `skipped`).
   */
  until?: number;
}

/** The outcome of a replay. */
export interface ReplayOutcome {
  steps: ReplayStep[];
  /** The final snapshot the replay reached. */
  snapshot: SnapshotFrom<SubagentMachine>;
  /** The result the replay produced, if it reached a final state. */
  result: TaskResult | undefined;
  /** The result recorded in the store, if the task ended. */
  recorded: TaskResult | undefined;
  /**
   * True when the replay reproduced everything the store recorded: the whole stored snapshot
   * document (state, status, every context field, output, `journalLength`, `savedAt`) and the
   * stored result.
   */
  matches: boolean;
  /** The first difference in one line (see `first`), when `matches` is false; else empty. */
  differences: string[];
  /** The first difference: the differing value's path and the first differing journal entry. */
  first?: ReplayDifference;
  /** What was compared, in words (`the stored snapshot after 6 journal entries`, `the stored result`). */
  compared: string[];
  /** What could not be compared, and why (`the stored snapshot cannot be read: …`). */
  skipped?: string;
  /**
   * Journal records the store could not read (too deep, malformed, torn by a crash), each naming
   * the task's journal and where: the replay is of the readable entries only.
   */
  journalWarnings?: string[];
}

/**
 * Replays a persisted task: its journal of events is fed back through the same subagent machine,
 * standing in for the model, the tools and the host. No network, no side effects. The replay is
 * then checked against the whole stored snapshot document and the stored result (`matches`; a
 * mismatch names the first differing value and journal entry in `first`). Throws a `TroupeError`
 * (`TASK_NOT_FOUND`) for a task the store does not hold.
 */
export async function replayTask(
  store: TaskStore,
  taskId: string,
  options: ReplayOptions = {},
): Promise<ReplayOutcome> {
  const task = await store.getTask(taskId);
  if (!task) throw new TroupeError('TASK_NOT_FOUND', `No task "${taskId}" in the store.`);
  const journal = await store.loadJournal(taskId);
  const journalWarnings = journal.warnings.map((warning) => warning.message);
  // A store that does not check what it reads (a host's own) must not overflow the stack here.
  const entries = readableEntries(taskId, journal.entries, journalWarnings);
  const spec = task.spec;
  const feed = feedJournal(machineInputFromSpec(spec), options.inspect ? { inspect: options.inspect } : {});
  const steps: ReplayStep[] = [];
  const limit = options.until ?? entries.length;
  for (const entry of entries.slice(0, limit)) {
    const step = { seq: entry.seq, event: entry.event, snapshot: feed.feed(entry) };
    steps.push(step);
    await options.onStep?.(step);
  }
  const { initial, snapshot } = feed;
  feed.stop();
  const result = snapshot.status === 'done' && snapshot.output ? toResult(spec, snapshot.output) : undefined;
  let recorded = task.result;
  let stored: TaskSnapshotDocument | undefined;
  const unreadable: string[] = [];
  try {
    recorded ??= await store.loadResult(taskId);
  } catch (error) {
    unreadable.push(`the stored result cannot be read: ${describeThrown(error)}`);
  }
  try {
    stored = await store.loadSnapshot(taskId);
    const outOfBounds = stored === undefined ? undefined : exceedsDocumentBounds(stored);
    if (outOfBounds) {
      stored = undefined;
      unreadable.push(
        `the stored snapshot cannot be read: task ${taskId}'s snapshot document: ${outOfBounds}`,
      );
    }
  } catch (error) {
    unreadable.push(`the stored snapshot cannot be read: ${describeThrown(error)}`);
  }
  const skipped = unreadable.length ? unreadable.join('; ') : undefined;
  if (steps.length < entries.length) {
    // Stopped early on purpose: the stored documents reflect more than this replay.
    const outcome = { steps, snapshot, result, recorded, matches: true, differences: [], compared: [] };
    return {
      ...outcome,
      skipped: `the replay stopped after ${steps.length} of ${entries.length} journal entries`,
    };
  }
  const check = checkReplay({ initial, steps, specMessages: spec.messages.length }, stored, recorded, result);
  return {
    steps,
    snapshot,
    result,
    recorded,
    matches: check.matches,
    differences: check.first ? [describeDifference(check.first)] : [],
    ...(check.first ? { first: check.first } : {}),
    compared: check.compared,
    ...(skipped ? { skipped } : {}),
    ...(journalWarnings.length ? { journalWarnings } : {}),
  };
}

/** The journal's entries up to the first one past the document bounds (which is reported). */
function readableEntries(taskId: string, entries: JournalEntry[], warnings: string[]): JournalEntry[] {
  for (let index = 0; index < entries.length; index++) {
    const outOfBounds = exceedsDocumentBounds(entries[index]);
    if (outOfBounds) {
      warnings.push(
        `Task ${taskId}: journal entry ${index} cannot be read: ${outOfBounds}; the replay stops before it.`,
      );
      return entries.slice(0, index);
    }
  }
  return entries;
}
