import { createActor, type InspectionEvent, type Observer, type SnapshotFrom } from 'xstate';
import { TroupeError } from '../errors.js';
import type { SubagentEvent } from '../machines/subagent-events.js';
import { type SubagentMachine, subagentMachine } from '../machines/subagent-machine.js';
import { machineInputFromSpec } from '../persistence/machine-input.js';
import type { TaskResult, TaskStore } from '../persistence/types.js';
import { SCHEMA_VERSION } from '../persistence/types.js';
import { toResult } from '../runtime/task-results.js';
import { firstDifference } from './first-difference.js';

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
  /** Stop after this many journal entries (to look at an intermediate state). */
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
  /** True when the replayed result equals the recorded one (status, reason, output, counts, usage). */
  matches: boolean;
  /** Fields that differ, when `matches` is false. */
  differences: string[];
}

/**
 * Replays a persisted task: its journal of events is fed back through the same subagent machine,
 * standing in for the model, the tools and the host. No network, no side effects. A journal
 * replays to exactly the recorded final state; `matches` checks that against the stored result.
 */
export async function replayTask(
  store: TaskStore,
  taskId: string,
  options: ReplayOptions = {},
): Promise<ReplayOutcome> {
  const { tasks } = await store.loadTasks();
  const task = tasks.find((candidate) => candidate.spec.taskId === taskId);
  if (!task) throw new TroupeError('TASK_NOT_FOUND', `No task "${taskId}" in the store.`);
  const { entries } = await store.loadJournal(taskId);
  const spec = task.spec;
  const actor = createActor(subagentMachine, {
    input: machineInputFromSpec(spec),
    ...(options.inspect ? { inspect: options.inspect } : {}),
  });
  actor.start();
  const steps: ReplayStep[] = [];
  const limit = options.until ?? entries.length;
  for (const entry of entries.slice(0, limit)) {
    if (entry.v !== SCHEMA_VERSION)
      throw new TroupeError(
        'PERSISTENCE_VERSION',
        `Task ${taskId}: journal entry ${entry.seq} has schema version ${entry.v}; this troupe reads version ${SCHEMA_VERSION}.`,
      );
    actor.send(entry.event);
    const step = { seq: entry.seq, event: entry.event, snapshot: actor.getSnapshot() };
    steps.push(step);
    await options.onStep?.(step);
  }
  const snapshot = actor.getSnapshot();
  actor.stop();
  const result = snapshot.status === 'done' && snapshot.output ? toResult(spec, snapshot.output) : undefined;
  const recorded = task.result ?? (await store.loadResult(taskId));
  const differences: string[] = [];
  if (recorded && result) {
    for (const key of [
      'status',
      'terminateReason',
      'output',
      'turns',
      'toolCalls',
      'usage',
      'model',
      'durationMs',
    ] as const) {
      // By value: a store may give the fields back in another key order (usage with cache tokens).
      if (firstDifference(recorded[key], result[key])) differences.push(key);
    }
  } else if (recorded || result)
    differences.push(recorded ? 'the replay did not reach a final state' : 'the task has no recorded result');
  return { steps, snapshot, result, recorded, matches: differences.length === 0, differences };
}
