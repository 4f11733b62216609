import { createRuntime, type ModelRequest, parseAgentFile } from '@troupe/core';
import { scriptedModel, textReply, toolReply } from '@troupe/core/testing';
import { afterEach, expect, it } from 'vitest';
import { createIndexedDbStore, createOpfsTools, openOpfsWorkspace } from '../src/index.js';

// The package README's embedding example, step by step in a real page (IndexedDB, Web Locks,
// OPFS), with a scripted model standing in for Claude.

const WRITER = `---
name: writer
description: Writes notes into the workspace.
tools: read, write
---
You write notes.`;

const toolResults = (request: ModelRequest) =>
  request.messages.flatMap((message) =>
    typeof message.content === 'string'
      ? []
      : message.content.filter((block) => block.type === 'tool_result'),
  );

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
});

it('runs the README example: a session delegates, a write is approved, tasks persist in IndexedDB', async () => {
  const name = `readme-${Date.now()}`;
  const store = createIndexedDbStore({ name });
  await store.claim();
  const workspace = await openOpfsWorkspace(`troupe-test/${name}`);
  const model = scriptedModel((request) => {
    if (request.agent === 'writer')
      return toolResults(request).length === 0
        ? toolReply('write', { file_path: 'notes.md', content: '# Notes\n' })
        : textReply('Wrote notes.md.');
    return toolResults(request).length === 0
      ? toolReply('task', { description: 'Write notes', prompt: 'Write notes.md', subagent_type: 'writer' })
      : textReply('The writer wrote notes.md.');
  });
  const runtime = createRuntime({
    model,
    agents: [parseAgentFile(WRITER, { path: 'writer.md' }).definition],
    tools: [...createOpfsTools(workspace)],
    approval: 'ask',
    store,
  });
  cleanup = async () => {
    await runtime.shutdown();
    const root = await navigator.storage.getDirectory();
    await root.removeEntry('troupe-test', { recursive: true }).catch(() => undefined);
  };
  const asked: string[] = [];
  runtime.on('approval.requested', (request) => {
    asked.push(`${request.agent} wants ${request.tool}`);
    runtime.approve(request.id);
  });
  expect((await runtime.restore()).restored).toEqual([]);
  const session = runtime.createSession();
  expect((await session.send('Write some notes.')).text).toBe('The writer wrote notes.md.');
  expect(asked).toEqual(['writer wants write']);
  const file = await (await workspace.root.getFileHandle('notes.md')).getFile();
  expect(await file.text()).toBe('# Notes\n');

  // The main agent's run is stored too (an ended task of depth 0, for the usage ledger).
  const { tasks } = await runtime.history();
  expect(tasks.map((task) => [task.agent, task.status, task.depth])).toEqual([
    ['writer', 'completed', 1],
    ['main', 'completed', 0],
  ]);
  expect((await runtime.usage()).main.tasks).toBe(1);
  const reader = createIndexedDbStore({ name });
  expect((await reader.listTasks()).tasks.map((task) => task.description)).toEqual([
    'Write notes',
    'main agent',
  ]);
  await reader.close();
});

it('follows up a finished task after a reload: its conversation is read back from IndexedDB', async () => {
  const name = `follow-up-${Date.now()}`;
  const agents = [{ name: 'notes', description: 'Answers.', systemPrompt: 'Answer.', tools: [] }];
  // Answers with how many user messages the conversation has and how it began.
  const model = scriptedModel((request) => {
    const users = request.messages.filter((message) => message.role === 'user').length;
    return textReply(`${users} user messages since ${JSON.stringify(request.messages[0]!.content)}`);
  });
  const store = createIndexedDbStore({ name });
  await store.claim();
  const first = createRuntime({ model, agents, store });
  const original = await first.spawn({ agent: 'notes', prompt: 'What is in notes.md?', sessionKey: 's' })
    .result;
  await first.shutdown();
  await store.close();

  // The page reloaded: a new store over the same database, a new runtime.
  const reopened = createIndexedDbStore({ name });
  await reopened.claim();
  const second = createRuntime({ model, agents, store: reopened });
  cleanup = () => second.shutdown().then(() => reopened.close());
  const handle = await second.followUp(original.taskId, 'And in todo.md?');
  expect((await handle.result).output).toBe('2 user messages since "What is in notes.md?"');
  const byName = await second.followUp('notes', 'And after that?', { sessionKey: 's' });
  expect((await byName.result).output).toBe('3 user messages since "What is in notes.md?"');
  expect((await reopened.getTask(byName.id))?.spec.followUpOf).toBe(handle.id);
});
