import { createWebSocketInspector } from '@statelyai/inspect';
import { createInspectorServer } from '@statelyai/inspect/server';
import type { InspectionEvent, Observer } from 'xstate';
import { inspectInto } from '../stately/attach-stately.js';
import type { RecorderOptions } from '../timeline/recorder.js';

/** Options of {@link inspectWithStately}. */
export interface StatelyBridgeOptions extends Pick<RecorderOptions, 'secrets'> {
  /** Port of the local bridge page and WebSocket. Default 8080 (Stately's). */
  port?: number;
  /** Open the bridge page in the default browser. Default false. */
  open?: boolean;
}

/** A running bridge to the hosted Stately inspector. */
export interface StatelyBridge {
  /** Pass this as `inspect` to `createRuntime` (or `replayTask`). */
  readonly inspect: Observer<InspectionEvent>;
  /** The page to open: it embeds https://stately.ai/inspect, which needs the internet. */
  readonly url: string;
  /** Sends more events to the inspector (e.g. a recorded timeline's, from `toStatelyEvents`). */
  send(event: Parameters<ReturnType<typeof createWebSocketInspector>['adapter']['send']>[0]): void;
  /** Stops the inspector's connection and the local bridge server. */
  stop(): void;
}

/**
 * In Node: starts `@statelyai/inspect/server`'s bridge (a page on localhost that embeds the hosted
 * Stately inspector, plus a WebSocket) and connects a `createWebSocketInspector` to it. One line to
 * attach a runtime: `createRuntime({ ..., inspect: inspectWithStately().inspect })`. Opt-in: the
 * hosted inspector UI needs the internet; the offline inspector (`createRelay`) does not.
 */
export function inspectWithStately(options: StatelyBridgeOptions = {}): StatelyBridge {
  const port = options.port ?? 8080;
  const server = createInspectorServer({ port, autoOpen: options.open ?? false });
  const inspector = createWebSocketInspector({ url: `ws://127.0.0.1:${port}`, maxDeferredEvents: 100_000 });
  return {
    inspect: inspectInto(inspector, options),
    url: `http://localhost:${port}`,
    send: (event) => inspector.adapter.send(event),
    stop() {
      inspector.stop();
      server.stop();
    },
  };
}
