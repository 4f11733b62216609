import { type ReplayOptions, type ReplayOutcome, replayTask, type TaskStore } from '@troupe/core';
import type { InspectionEvent } from 'xstate';
import { createRecorder } from '../timeline/recorder.js';
import type { Timeline, TimelineHeader, TimelineRecord } from '../timeline/types.js';

/** Options of {@link replayTimeline}. */
export interface ReplayTimelineOptions extends Pick<ReplayOptions, 'onStep' | 'until'> {
  /** Exact secret values to redact (see `createRedactor`). */
  secrets?: readonly (string | undefined)[];
  /** Named in the timeline's header. */
  storeName?: string;
  /** Each record as it is made (to stream a replay to the relay). */
  onRecord?: (record: TimelineRecord) => void;
}

/**
 * A replay's outcome and the timeline it produced. Whether it reproduced the whole stored snapshot
 * and result is core's check: `outcome.matches`, `outcome.first`, `outcome.differences`.
 */
export interface ReplayTimeline {
  outcome: ReplayOutcome;
  timeline: Timeline;
}

/**
 * Replays a stored task with `replayTask` (its journal through the same machine: no model, no
 * tool, no network) and records the replay's timeline. Each record is stamped with the time of the
 * journal event being replayed, so the timeline shows the run's own times, not the replay's.
 * `replayTask` checks it against the whole stored snapshot and result (`outcome.matches`); a
 * snapshot that cannot be read is left out of that check and named in `outcome.skipped`.
 */
export async function replayTimeline(
  store: TaskStore,
  taskId: string,
  options: ReplayTimelineOptions = {},
): Promise<ReplayTimeline> {
  return recordReplay(store, taskId, options, 0);
}

/**
 * {@link replayTimeline}, with the records made before the journal's first event gives a time (the
 * actor's creation) stamped `startAt`: a team's spell starts at its own time, not at 0.
 * @internal
 */
export async function recordReplay(
  store: TaskStore,
  taskId: string,
  options: ReplayTimelineOptions,
  startAt: number,
): Promise<ReplayTimeline> {
  let at = startAt;
  const recorder = createRecorder({
    source: replaySource(taskId, options.storeName),
    now: () => at,
    ...(options.secrets ? { secrets: options.secrets } : {}),
  });
  const off = options.onRecord ? recorder.subscribe(options.onRecord) : () => {};
  const inspect = (event: InspectionEvent) => {
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
    return { outcome, timeline: recorder.timeline() };
  } finally {
    off();
  }
}

/** The header's source of a replay of `taskId`. @internal */
export function replaySource(taskId: string, storeName: string | undefined): TimelineHeader['source'] {
  return { kind: 'replay', taskId, ...(storeName ? { store: storeName } : {}) };
}
