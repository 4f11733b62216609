// A runtime in its own process restoring a file store, for the restore-lock tests.
// Usage: node --conditions=source --import tsx restore-runner.ts <dir> <marker file>
// Prints one JSON line: {"restored": [...], "warnings": [...]} or {"error": {code, message, details}}; then
// {"finished": [...]} once the restored tasks ended. The model answers only after a line arrives on
// stdin (so both runtimes of a test have restored before either task moves on); shuts down when
// stdin ends.

import { createFileStore } from '../../src/store/file-store.js';
import { markerModel, markerRuntime, restoreAndSay, stdinControl } from './marker-runtime.js';

const [dir, marker, storeOptions] = process.argv.slice(2);
if (!dir || !marker) throw new Error('usage: restore-runner.ts <dir> <marker file>');

const stdin = stdinControl();
const model = markerModel(stdin.go);
// Optional third argument: more file store options, as JSON (heartbeats in the cross-host tests).
const store = createFileStore({ dir, ...(storeOptions ? JSON.parse(storeOptions) : {}) });
const runtime = markerRuntime(model, store, marker);
await restoreAndSay(runtime, store);
await stdin.ended;
stdin.close();
await runtime.shutdown();
