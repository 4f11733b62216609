import { expect, it } from 'vitest';
import { echoAndSaveTools, scriptedModel, textReply, toolReply } from '../testing/index.js';
import { createRuntime } from './create-runtime.js';

it('runs a task with a tool call to completion', async () => {
  const [echo] = echoAndSaveTools();
  const model = scriptedModel([toolReply('echo', { text: 'hi' }), textReply('done')]);
  const runtime = createRuntime({
    model,
    tools: [echo],
    agents: [{ name: 'explore', description: 'x', systemPrompt: 'You explore.', tools: ['echo'] }],
  });
  const events: string[] = [];
  for (const name of [
    'task.queued',
    'task.started',
    'tool.started',
    'tool.finished',
    'task.completed',
  ] as const)
    runtime.on(name, () => events.push(name));
  const handle = runtime.spawn({ agent: 'explore', prompt: 'Find X' });
  const result = await handle.result;
  expect(result).toMatchObject({
    status: 'completed',
    terminateReason: 'GOAL',
    output: 'done',
    turns: 2,
    toolCalls: 1,
  });
  expect(events).toEqual(['task.queued', 'task.started', 'tool.started', 'tool.finished', 'task.completed']);
  expect(model.requests[1]?.messages.at(-1)).toEqual({
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: expect.any(String), content: 'echo: hi' }],
  });
});
