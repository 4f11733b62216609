import {
  type ReplayOptions,
  type ReplayOutcome,
  replayTask,
  type TaskSnapshotDocument,
  type TaskStore,
} from '@troupe/core';
import type { InspectionEvent } from 'xstate';
import { createRecorder } from '../timeline/recorder.js';
import type { Timeline, TimelineRecord } from '../timeline/types.js';
import { checkReplay, type ReplayCheck } from './check-replay.js';

/** Options of {@link replayTimeline}. */
export interface ReplayTimelineOptions extends Pick<ReplayOptions, 'onStep' | 'until'> {
  /** Exact secret values to redact (see `createRedactor`). */
  secrets?: readonly (string | undefined)[];
  /** Named in the timeline's header. */
  storeName?: string;
  /** Each record as it is made (to stream a replay to the relay). */
  onRecord?: (record: TimelineRecord) => void;
}

/** A replay's outcome, the timeline it produced, and its check against what the store recorded. */
export interface ReplayTimeline {
  outcome: ReplayOutcome;
  timeline: Timeline;
  /** The whole stored snapshot and the stored result, compared with the replay (see `checkReplay`). */
  check: ReplayCheck;
}

/**
 * Replays a stored task with `replayTask` (its journal through the same machine: no model, no
 * tool, no network) and records the replay's timeline. Each record is stamped with the time of the
 * journal event being replayed, so the timeline shows the run's own times, not the replay's.
 * The replay is then checked against the stored snapshot and result (`check`); a snapshot that
 * cannot be read is left out of the check and named in `check.skipped`.
 */
export async function replayTimeline(
  store: TaskStore,
  taskId: string,
  options: ReplayTimelineOptions = {},
): Promise<ReplayTimeline> {
  let at = 0;
  const recorder = createRecorder({
    source: { kind: 'replay', taskId, ...(options.storeName ? { store: options.storeName } : {}) },
    now: () => at,
    ...(options.secrets ? { secrets: options.secrets } : {}),
  });
  const off = options.onRecord ? recorder.subscribe(options.onRecord) : () => {};
  let initial: ReplayOutcome['snapshot'] | undefined;
  const inspect = (event: InspectionEvent) => {
    if (!initial && event.type === '@xstate.snapshot' && event.event.type === 'xstate.init')
      initial = event.snapshot as ReplayOutcome['snapshot'];
    if (event.type === '@xstate.event') {
      const time = (event.event as { at?: unknown }).at;
      if (typeof time === 'number') at = time;
    }
    recorder.inspect.next?.(event);
  };
  try {
    const outcome = await replayTask(store, taskId, {
      inspect,
      ...(options.onStep ? { onStep: options.onStep } : {}),
      ...(options.until !== undefined ? { until: options.until } : {}),
    });
    let stored: TaskSnapshotDocument | undefined;
    let unreadable: string | undefined;
    try {
      stored = await store.loadSnapshot(taskId);
    } catch (error) {
      unreadable = `the stored snapshot cannot be read: ${(error as Error).message}`;
    }
    const check = checkReplay(outcome, stored, initial);
    if (unreadable) check.skipped = unreadable;
    return { outcome, timeline: recorder.timeline(), check };
  } finally {
    off();
  }
}
