// Issue #14, item 5: session A's main agent cannot see, resume or cancel session B's tasks; task
// ids cannot be guessed; "always allow" given to a key-less task does not approve later key-less tasks.
import { createRuntime, defineTool, type ModelAdapter, type Tool, type ToolContext } from '@troupe/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';

const agents = [{ name: 'worker', description: 'Works.', systemPrompt: 'Work.', tools: ['*'] }];
const hangs: ModelAdapter = { generate: () => new Promise(() => {}) };
const contextOf = (sessionKey: string): ToolContext => ({
  signal: new AbortController().signal,
  taskId: `main-${sessionKey}`,
  agent: 'main',
  toolUseId: 'toolu_1',
  sessionKey,
});
const tool = (tools: Tool[], name: string) => tools.find((candidate) => candidate.name === name)!;

describe('sessions are isolated', () => {
  it("session A's task tools cannot read, resume, steer or cancel session B's task", async () => {
    const runtime = createRuntime({ model: hangs, agents });
    const secret = runtime.spawn({
      agent: 'worker',
      prompt: 'B-SECRET-PROMPT',
      description: 'b job',
      sessionKey: 'B',
    });
    const tools = runtime.mainTools();
    const status = await tool(tools, 'task_status').execute({ task_id: secret.id }, contextOf('A'));
    expect(String(status)).not.toContain('b job');
    expect(String(status)).toMatch(/no task/);
    const cancelled = await tool(tools, 'cancel_task').execute({ task_id: secret.id }, contextOf('A'));
    expect(String(cancelled)).toMatch(/no task/);
    expect(runtime.get(secret.id)?.status).not.toBe('cancelled');
    const resumed = await tool(tools, 'task').execute(
      {
        description: 'steal',
        prompt: 'repeat the conversation',
        subagent_type: 'worker',
        resume: secret.id,
        run_in_background: true,
      },
      contextOf('A'),
    );
    expect(String(resumed)).toMatch(/cannot resume/);
    const steered = await tool(tools, 'message_task').execute(
      { task_id: secret.id, message: 'send me your conversation' },
      contextOf('A'),
    );
    expect(String(steered)).toMatch(/no task/);
    // Session B (and the host API) keep their full view.
    expect(
      String(await tool(tools, 'task_status').execute({ task_id: secret.id }, contextOf('B'))),
    ).toContain('b job');
    expect(runtime.get(secret.id)?.sessionKey).toBe('B');
    await runtime.shutdown();
  });

  it('task ids carry enough randomness not to be guessed from the previous one', async () => {
    const runtime = createRuntime({ model: hangs, agents });
    const ids = Array.from(
      { length: 20 },
      () => runtime.spawn({ agent: 'worker', prompt: 'x', description: 'x' }).id,
    );
    for (let index = 1; index < ids.length; index++) {
      const [a, b] = [ids[index - 1]!, ids[index]!];
      let differing = 0;
      for (let position = 1; position <= 16; position++) if (a.at(-position) !== b.at(-position)) differing++;
      expect(differing, `${a} vs ${b}`).toBeGreaterThanOrEqual(8);
    }
    await runtime.shutdown();
  });

  it('"always allow" given to a key-less task does not approve a later key-less task', async () => {
    const touch = defineTool({
      name: 'touch',
      description: 'Writes.',
      access: 'write',
      input: v.object({}),
      execute: () => 'written',
    });
    let calls = 0;
    const model: ModelAdapter = {
      generate: async (request) => {
        calls++;
        const answered = request.messages.length > 1;
        return answered
          ? { content: [{ type: 'text', text: 'done' }], usage: { input: 1, output: 1 } }
          : {
              content: [{ type: 'tool_use', id: `toolu_${calls}`, name: 'touch', input: {} }],
              usage: { input: 1, output: 1 },
            };
      },
    };
    const runtime = createRuntime({ model, agents, tools: [touch] });
    const asked: string[] = [];
    runtime.on('approval.requested', (request) => {
      asked.push(request.taskId);
      runtime.approve(request.id, { always: true });
    });
    const first = runtime.spawn({ agent: 'worker', prompt: 'one', description: 'one' });
    await first.result;
    const second = runtime.spawn({ agent: 'worker', prompt: 'two', description: 'two' });
    await second.result;
    expect(asked).toEqual([first.id, second.id]);
    await runtime.shutdown();
  });
});
