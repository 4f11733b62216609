// What the restore-lock and task-owner runners share: the marker-appending write tool (whose
// double run those tests look for) and a model that calls it once, then answers, but only after
// a line arrives on stdin.

import { once } from 'node:events';
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import {
  createRuntime,
  defineTool,
  type ModelAdapter,
  type ModelRequest,
  PersistenceError,
  type Runtime,
  type TaskStore,
} from '@troupe/core';
import { scriptedModel, textReply, toolReply } from '@troupe/core/testing';
import * as v from 'valibot';
import { restoreLockAgent } from './restore-lock-agent.js';

/** The write tool: each call appends this process's pid to `marker`. */
export function appendMarkerTool(marker: string) {
  return defineTool({
    name: 'append_marker',
    description: 'Appends a line to the marker file',
    access: 'write',
    input: v.object({}),
    execute: async () => {
      appendFileSync(marker, `${process.pid}\n`);
      return 'appended';
    },
  });
}

/**
 * stdin as the test drives it: `go` resolves at the first line, `ended` when stdin ends; `close()`
 * stops reading.
 */
export function stdinControl() {
  const lines = createInterface({ input: process.stdin });
  const go = new Promise<void>((resolve) => lines.once('line', () => resolve()));
  const ended = once(process.stdin, 'end');
  return { go, ended, close: () => lines.close() };
}

/** A model that waits for `go`, then calls `append_marker` once and says done. */
export function markerModel(go: Promise<void>, onCall?: (request: ModelRequest) => Promise<void>) {
  return scriptedModel(async (request) => {
    await onCall?.(request);
    await go;
    return request.messages.some(
      (message) =>
        Array.isArray(message.content) && message.content.some((block) => block.type === 'tool_result'),
    )
      ? textReply('done')
      : toolReply('append_marker', {});
  });
}

/** Prints one JSON line for the test. */
export const say = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

/** A runtime over `store` running the restore-lock agent, its marker tool appending to `marker`, every call approved. */
export function markerRuntime(model: ModelAdapter, store: TaskStore, marker: string) {
  return createRuntime({
    model,
    agents: [restoreLockAgent],
    tools: [appendMarkerTool(marker)],
    approval: 'auto',
    store,
  });
}

/**
 * A restore runner's run: restores, says `{restored, warnings}`; once the restored tasks ended and
 * the store is flushed (on disk before saying so: the tests kill the process next), says
 * `{finished: [status, …]}`. A refused restore (a `PersistenceError`) is said as
 * `{error: {code, message, details}}`.
 */
export async function restoreAndSay(
  runtime: Pick<Runtime, 'restore' | 'result'>,
  store: Pick<TaskStore, 'flush'>,
): Promise<void> {
  try {
    const { restored, warnings } = await runtime.restore();
    say({ restored, warnings });
    const results = await Promise.all(restored.map((id) => runtime.result(id)));
    await store.flush();
    say({ finished: results.map((result) => result?.status) });
  } catch (error) {
    if (!PersistenceError.isInstance(error)) throw error;
    say({ error: { code: error.code, message: error.message, details: error.details } });
  }
}
