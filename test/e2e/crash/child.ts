// A troupe process for the crash test. Phase `run` starts tasks and gets stuck at the points the
// test kills it (SIGKILL); phase `restore` brings the tasks back and finishes them. Markers on
// stdout (`MARK <name>`) tell the test where the process is. Usage:
//   node --conditions=source --import tsx child.ts <scenario> <phase> <storeDir> <ledgerFile>
import { appendFileSync } from 'node:fs';
import { createRuntime, defineTool, FINAL_TASK_EVENTS, type ModelRequest } from '@troupe/core';
import { type ScriptedReply, scriptedModel } from '@troupe/core/testing';
import { createFileStore } from '@troupe/node';
import * as v from 'valibot';

const [scenario, phase, dir, ledger] = process.argv.slice(2) as [string, 'run' | 'restore', string, string];
const store = createFileStore({ dir, snapshotDelayMs: 0 });
const mark = (name: string) => process.stdout.write(`MARK ${name}\n`);
const never = () => new Promise<never>(() => {});

/** The write tool: appends its call id to the ledger (the side effect that must never repeat). */
const appendLine = defineTool({
  name: 'append_line',
  description: 'Appends a line to the ledger.',
  access: 'write',
  input: v.object({ line: v.string() }),
  execute: async ({ line }, { toolUseId }) => {
    appendFileSync(ledger, `${toolUseId} ${line}\n`);
    if (phase === 'run' && line === 'B') {
      await store.flush();
      mark('B-tool');
      return never();
    }
    return 'appended';
  },
});
const readNote = defineTool({
  name: 'read_note',
  description: 'Reads a note.',
  access: 'read',
  input: v.object({ key: v.string() }),
  execute: ({ key }) => `note ${key}: ${'x'.repeat(2000)}`,
});

const userText = (request: ModelRequest) => {
  const first = request.messages[0]!.content;
  return typeof first === 'string' ? first : '';
};
const turnOf = (request: ModelRequest) =>
  request.messages.filter((message) => message.role === 'assistant').length + 1;
const tool = (name: string, input: unknown, id: string): ScriptedReply => ({
  content: [{ type: 'tool_use', id, name, input }],
  usage: { input: 50, output: 10 },
});
const text = (value: string): ScriptedReply => ({
  content: [{ type: 'text', text: value }],
  usage: { input: 50, output: 10 },
});

const model = scriptedModel(async (request) => {
  const task = userText(request);
  const turn = turnOf(request);
  if (scenario === 'many')
    return turn === 1 ? tool('read_note', { key: task }, `${task}-r`) : text(`done ${task}`);
  switch (task) {
    case 'A':
      if (turn === 1) return tool('read_note', { key: 'a' }, 'A-1');
      if (phase === 'run') {
        await store.flush();
        mark('A-model');
        return never();
      }
      return text('A finished');
    case 'B':
      return turn === 1 ? tool('append_line', { line: 'B' }, 'B-1') : text('B finished');
    case 'C':
      return turn === 1 ? tool('append_line', { line: 'C' }, 'C-1') : text('C finished');
    default:
      return text(`${task} finished`);
  }
});

const runtime = createRuntime({
  model,
  store,
  tools: [appendLine, readNote],
  agents: [{ name: 'worker', description: 'Works.', systemPrompt: 'You work.' }],
  limits: { maxConcurrent: scenario === 'many' ? 5 : 3 },
  approval: 'ask',
});

runtime.on('approval.requested', async (request) => {
  // In the run phase C's approval is left waiting when the process dies; every other one is
  // approved (in the restore phase, C's is asked again and approved).
  if (phase === 'run' && request.taskId === cId) {
    await store.flush();
    mark('C-approval');
    return;
  }
  mark(`approval-asked ${request.taskId}`);
  runtime.approve(request.id);
});

let cId = '';
if (phase === 'run') {
  if (scenario === 'many') {
    let completed = 0;
    runtime.on('task.completed', () => {
      completed++;
      if (completed % 25 === 0) mark(`completed ${completed}`);
    });
    const prompts = Array.from({ length: 300 }, (_, index) => `task-${index}`);
    for (const prompt of prompts) runtime.spawn({ agent: 'worker', prompt });
    await store.flush();
    mark('spawned');
  } else {
    for (const prompt of ['A', 'B', 'C', 'D', 'E']) {
      const { id } = runtime.spawn({ agent: 'worker', prompt, description: prompt });
      if (prompt === 'C') cId = id;
    }
    await store.flush();
    mark('spawned');
  }
  await never();
} else {
  const { restored, warnings } = await runtime.restore();
  mark(`restored ${restored.length}`);
  const results = await Promise.all(restored.map((id) => resultOf(id)));
  await runtime.shutdown();
  process.stdout.write(`RESULT ${JSON.stringify({ restored, warnings, results })}\n`);
}

function resultOf(id: string) {
  return new Promise((resolve) => {
    const info = runtime.get(id);
    if (info?.result) return resolve(info.result);
    for (const name of FINAL_TASK_EVENTS)
      runtime.on(name, (event) => event.taskId === id && resolve(event.result));
  });
}
