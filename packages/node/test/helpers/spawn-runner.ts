// A runtime in its own process that spawns one task in a file store and never restores, for the
// task-owner tests. Usage: node --conditions=source --import tsx spawn-runner.ts <dir> <marker>
// Prints {"spawned": id} once the task's first model call is in flight (its records on disk), then
// {"finished": [status]} when it ended. The model answers only after a line arrives on stdin;
// shuts down when stdin ends.

import { once } from 'node:events';
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createRuntime, defineTool } from '@troupe/core';
import { scriptedModel, textReply, toolReply } from '@troupe/core/testing';
import * as v from 'valibot';
import { createFileStore } from '../../src/store/file-store.js';
import { restoreLockAgent } from './restore-lock-agent.js';

const [dir, marker] = process.argv.slice(2);
if (!dir || !marker) throw new Error('usage: spawn-runner.ts <dir> <marker file>');

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
const say = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
const store = createFileStore({ dir });
let announced = false;
const model = scriptedModel(async (request) => {
  if (!announced) {
    announced = true;
    await store.flush();
    say({ spawned: request.taskId });
  }
  await go;
  return request.messages.some(
    (message) =>
      Array.isArray(message.content) && message.content.some((block) => block.type === 'tool_result'),
  )
    ? textReply('done')
    : toolReply('append_marker', {});
});
const runtime = createRuntime({
  model,
  agents: [restoreLockAgent],
  tools: [appendMarker],
  approval: 'auto',
  store,
});
const { result } = runtime.spawn({ agent: 'marker', prompt: 'append once' });
const ended = await result;
await store.flush();
say({ finished: [ended.status] });
await stdinEnded;
lines.close();
await runtime.shutdown();
