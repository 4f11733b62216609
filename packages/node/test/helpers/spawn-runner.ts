// A runtime in its own process that spawns one task in a file store and never restores, for the
// task-owner tests. Usage: node --conditions=source --import tsx spawn-runner.ts <dir> <marker>
// Prints {"spawned": id} once the task's first model call is in flight (its records on disk), then
// {"finished": [status]} when it ended. The model answers only after a line arrives on stdin;
// shuts down when stdin ends.

import { createFileStore } from '../../src/store/file-store.js';
import { markerModel, markerRuntime, say, stdinControl } from './marker-runtime.js';

const [dir, marker, storeOptions] = process.argv.slice(2);
if (!dir || !marker) throw new Error('usage: spawn-runner.ts <dir> <marker file>');

const stdin = stdinControl();
// Optional third argument: more file store options, as JSON (heartbeats in the cross-host tests).
const store = createFileStore({ dir, ...(storeOptions ? JSON.parse(storeOptions) : {}) });
let announced = false;
const model = markerModel(stdin.go, async (request) => {
  if (announced) return;
  announced = true;
  await store.flush();
  say({ spawned: request.taskId });
});
const runtime = markerRuntime(model, store, marker);
const { result } = runtime.spawn({ agent: 'marker', prompt: 'append once' });
const ended = await result;
await store.flush();
say({ finished: [ended.status] });
await stdin.ended;
stdin.close();
await runtime.shutdown();
