// @troupe/inspect/stately: the Stately inspector (https://stately.ai/inspect), live or recorded.
import { createBrowserInspector } from '@statelyai/inspect';
import type { InspectionEvent, Observer } from 'xstate';
import type { RecorderOptions } from '../timeline/recorder.js';
import { inspectInto } from './attach-stately.js';

export { inspectInto, type StatelyTarget } from './attach-stately.js';
export {
  createStatelyExpander,
  type StatelyExtraEvent,
  type StatelyWireEvent,
  toStatelyEvents,
} from './stately-events.js';

/**
 * In a browser page: opens the hosted Stately inspector in a new window (it needs the internet)
 * and returns the observer to pass as `inspect` to `createRuntime`. Opt-in: nothing is sent
 * anywhere unless this is called.
 */
export function inspectInBrowser(
  options: Pick<RecorderOptions, 'secrets'> & {
    url?: string;
    iframe?: NonNullable<Parameters<typeof createBrowserInspector>[0]>['iframe'];
  } = {},
): Observer<InspectionEvent> {
  const inspector = createBrowserInspector({
    maxDeferredEvents: 100_000,
    ...(options.url ? { url: options.url } : {}),
    ...(options.iframe ? { iframe: options.iframe } : {}),
  });
  return inspectInto(inspector, options);
}
