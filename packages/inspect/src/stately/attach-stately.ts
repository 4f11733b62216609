import type { StatelyInspectionEvent } from '@statelyai/inspect';
import type { InspectionEvent, Observer } from 'xstate';
import { createRecorder, type RecorderOptions } from '../timeline/recorder.js';
import { createStatelyExpander } from './stately-events.js';

/** A Stately inspector, or anything with its adapter (`createInspector`, `createBrowserInspector`, ...). */
export interface StatelyTarget {
  /** Where the events go. */
  adapter: {
    /** Sends one event to the inspector. */
    send(event: StatelyInspectionEvent): void;
  };
}

/**
 * An XState inspection observer that sends everything it sees to a Stately inspector, through
 * this package's recorder: in order, redacted, with microsteps and actions. Pass the result as
 * `inspect` to `createRuntime` or `replayTask`.
 */
export function inspectInto(
  target: StatelyTarget,
  options: Pick<RecorderOptions, 'secrets' | 'now'> = {},
): Observer<InspectionEvent> {
  const recorder = createRecorder({ ...options, keep: false });
  const expand = createStatelyExpander(recorder.header);
  recorder.subscribe((record) => {
    const event = expand(record);
    if (event) target.adapter.send(event as StatelyInspectionEvent);
  });
  return recorder.inspect;
}
