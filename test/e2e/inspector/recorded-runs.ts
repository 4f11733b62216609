// Recorded runs for the inspector's browser tests: real runtimes (scripted model, no network)
// whose whole timeline the recorder kept, so the page can be checked against what happened.
import { createMemoryStore, createRuntime, defineTool, type TaskStore } from '@troupe/core';
import { scriptedModel, textReply, toolCallsReply, toolReply } from '@troupe/core/testing';
import { createRecorder, type Timeline } from '@troupe/inspect';
import * as v from 'valibot';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A read tool that answers after a short, real pause, so the run has durations to show. */
const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a word up',
  access: 'read',
  input: v.object({ word: v.string() }),
  execute: async ({ word }) => {
    await pause(15);
    return `${word}: found in src/${word}.ts`;
  },
});

/** A recorded session, its store, and the ids of what it ran. */
export interface RecordedSession {
  timeline: Timeline;
  store: TaskStore;
  /** The foreground task the main agent ran, then the two background ones, in spawn order. */
  taskIds: string[];
}

/**
 * A session whose main agent runs one `explore` task in the foreground (it calls `lookup` twice
 * in one turn, then answers) and starts two background tasks with `maxConcurrent: 1`, so one
 * waits in the queue; then the main agent answers. Real clock, short real pauses.
 */
export async function recordSession(): Promise<RecordedSession> {
  const recorder = createRecorder();
  const store = createMemoryStore();
  const model = scriptedModel(async (request) => {
    await pause(10);
    const main = request.tools.some((tool) => tool.name === 'task');
    const results = request.messages.flatMap((message) =>
      typeof message.content === 'string'
        ? []
        : message.content.filter((block) => block.type === 'tool_result'),
    );
    if (main) {
      if (results.length === 0)
        return {
          content: [
            { type: 'thinking', thinking: 'Delegate the search, then two checks.', signature: 'sig' },
            {
              type: 'tool_use',
              id: 'toolu_task_1',
              name: 'task',
              input: { description: 'Find auth', prompt: 'Where is auth?', subagent_type: 'explore' },
            },
          ],
          usage: { input: 1200, output: 80, cacheRead: 900, cacheWrite: 300 },
        };
      if (results.length === 1)
        return toolCallsReply(
          [
            { id: 'toolu_spawn_1', name: 'spawn', input: { task: 'Check login', label: 'login' } },
            { id: 'toolu_spawn_2', name: 'spawn', input: { task: 'Check logout', label: 'logout' } },
          ],
          { usage: { input: 1500, output: 60 } },
        );
      return textReply('Auth is in src/auth.ts; two checks run in the background.', {
        input: 1700,
        output: 40,
      });
    }
    if (results.length === 0)
      return toolCallsReply(
        [
          { id: `toolu_a_${request.messages.length}`, name: 'lookup', input: { word: 'auth' } },
          { id: `toolu_b_${request.messages.length}`, name: 'lookup', input: { word: 'login' } },
        ],
        { text: 'Looking both up.', usage: { input: 400, output: 30 } },
      );
    return textReply('Found it: src/auth.ts.', { input: 520, output: 12 });
  });
  const runtime = createRuntime({
    model,
    tools: [lookup],
    agents: [
      { name: 'main', description: 'The main agent.', systemPrompt: 'You are the main agent.' },
      {
        name: 'explore',
        description: 'Explores.',
        systemPrompt: 'You explore the code base.',
        tools: ['lookup'],
      },
      {
        name: 'general-purpose',
        description: 'Does anything.',
        systemPrompt: 'You help.',
        tools: ['lookup'],
      },
    ],
    limits: { maxConcurrent: 1 },
    store,
    approval: 'auto',
    inspect: recorder.inspect,
  });
  const taskIds: string[] = [];
  runtime.on('task.queued', (event) => taskIds.push(event.taskId));
  const done = new Set<string>();
  runtime.on('task.completed', (event) => done.add(event.taskId));
  const session = runtime.createSession({ sessionKey: 'demo', agent: 'main' });
  await session.send('Where is auth handled?');
  const deadline = Date.now() + 10_000;
  while (done.size < 3 && Date.now() < deadline) await pause(10);
  await pause(30);
  await runtime.shutdown();
  return { timeline: recorder.timeline(), store, taskIds };
}

/** A single `writer` task: a write tool approved by hand, then the answer. */
export async function recordApprovedTask(): Promise<{ timeline: Timeline; taskId: string }> {
  const recorder = createRecorder();
  const note = defineTool({
    name: 'save_note',
    description: 'Saves a note',
    access: 'write',
    input: v.object({ note: v.string() }),
    execute: ({ note }) => `saved ${note}`,
  });
  const runtime = createRuntime({
    model: scriptedModel([toolReply('save_note', { note: 'hello' }), textReply('saved the note')]),
    tools: [note],
    agents: [{ name: 'writer', description: 'Writes.', systemPrompt: 'You write.', tools: ['save_note'] }],
    store: createMemoryStore(),
    approval: 'ask',
    inspect: recorder.inspect,
  });
  runtime.on('approval.requested', (request) => {
    setTimeout(() => runtime.approve(request.id), 20);
  });
  const result = await runtime.spawn({ agent: 'writer', prompt: 'save hello', sessionKey: 's1' }).result;
  await runtime.shutdown();
  return { timeline: recorder.timeline(), taskId: result.taskId };
}
