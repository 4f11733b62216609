// @troupe/inspect/node: the local relay for the offline inspector, the bridge to the hosted
// Stately inspector, and timeline files.
export { createRelay, type Relay, type RelayOptions } from './relay.js';
export { inspectWithStately, type StatelyBridge, type StatelyBridgeOptions } from './stately-bridge.js';
export type { RelayStore } from './store-routes.js';
export { readTimelineFile, streamTimelineToFile } from './timeline-file.js';
