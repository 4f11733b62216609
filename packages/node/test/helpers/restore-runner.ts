// A runtime in its own process restoring a file store, for the restore-lock tests.
// Usage: node --conditions=source --import tsx restore-runner.ts <dir> <marker file>
// Prints one JSON line: {"restored": [...], "warnings": [...]} or {"error": {code, message}}; then
// {"finished": [...]} once the restored tasks ended. The model answers only after a line arrives on
// stdin (so both runtimes of a test have restored before either task moves on); shuts down when
// stdin ends.

import { once } from 'node:events';
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createRuntime, defineTool, PersistenceError } from '@troupe/core';
import { scriptedModel, textReply, toolReply } from '@troupe/core/testing';
import * as v from 'valibot';
import { createFileStore } from '../../src/store/file-store.js';
import { restoreLockAgent } from './restore-lock-agent.js';

const [dir, marker] = process.argv.slice(2);
if (!dir || !marker) throw new Error('usage: restore-runner.ts <dir> <marker file>');

// The write tool whose double run the lock prevents: each call appends this process's pid.
const appendMarker = defineTool({
  name: 'append_marker',
  description: 'Appends a line to the marker file',
  access: 'write',
  input: v.object({}),
  execute: async () => {
    appendFileSync(marker, `${process.pid}\n`);
    return 'appended';
  },
});
const lines = createInterface({ input: process.stdin });
const go = new Promise<void>((resolve) => lines.once('line', () => resolve()));
const stdinEnded = once(process.stdin, 'end');
const model = scriptedModel(async (request) => {
  await go;
  return request.messages.some(
    (message) =>
      Array.isArray(message.content) && message.content.some((block) => block.type === 'tool_result'),
  )
    ? textReply('done')
    : toolReply('append_marker', {});
});
const store = createFileStore({ dir });
const runtime = createRuntime({
  model,
  agents: [restoreLockAgent],
  tools: [appendMarker],
  approval: 'auto',
  store,
});
const say = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
try {
  const { restored, warnings } = await runtime.restore();
  say({ restored, warnings });
  const results = await Promise.all(restored.map((id) => runtime.result(id)));
  // On disk before saying so: the tests kill this process next.
  await store.flush();
  say({ finished: results.map((result) => result?.status) });
} catch (error) {
  if (!PersistenceError.isInstance(error)) throw error;
  say({ error: { code: error.code, message: error.message } });
}
await stdinEnded;
lines.close();
await runtime.shutdown();
