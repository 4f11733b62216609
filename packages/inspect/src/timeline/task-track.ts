import { buildTimelineModel } from './player.js';
import type { Timeline } from './types.js';

/** One task actor's course in a timeline: each event it took and the state it reached. */
export interface TaskTrack {
  taskId: string;
  steps: { event: { type: string; [key: string]: unknown }; value: unknown; status: string }[];
}

/**
 * The course of one task's actor in a timeline, to compare a live run with its replay: in a live
 * timeline the actor whose id is the task id, in a replay's timeline the replayed root actor.
 * Events are compared whole, except `xstate.init`, whose input is left out. Undefined when the
 * timeline has no such actor.
 */
export function taskTrack(timeline: Timeline, taskId: string): TaskTrack | undefined {
  const model = buildTimelineModel(timeline);
  const replayed = timeline.header.source.kind === 'replay' && timeline.header.source.taskId === taskId;
  const first = model.frames.find((frame) => {
    if (frame.kind !== 'actor') return false;
    const actor = frame.actors.get(frame.sessionId)!;
    return actor.name === taskId || actor.systemId === taskId || (replayed && !actor.parentId);
  });
  if (!first) return undefined;
  const steps = model.frames
    .filter((frame) => frame.kind === 'snapshot' && frame.sessionId === first.sessionId)
    .map((frame) => {
      const actor = frame.actors.get(frame.sessionId)!;
      // `xstate.init` carries the actor's input, which a replay rebuilds from the stored spec.
      const event = frame.event!.type === 'xstate.init' ? { type: 'xstate.init' } : frame.event!;
      return { event, value: actor.value, status: actor.status };
    });
  return { taskId, steps };
}
