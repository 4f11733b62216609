import { describe, expect, it } from 'vitest';
import { createAgentRegistry } from '../definitions/agent-registry.js';
import type { ModelRequest, ToolResultBlock } from '../model/types.js';
import { isGraceRequest } from '../testing/grace-request.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
import { fixtureRuntime, settle } from './test-fixtures.js';

/** Routes scripted replies by system prompt: the main agent vs sub-agents. */
function byAgent(
  main: (request: ModelRequest, call: number) => ReturnType<typeof textReply>,
  sub: (request: ModelRequest) => ReturnType<typeof textReply>,
) {
  let mainCalls = 0;
  return (request: ModelRequest) =>
    request.system.includes('main agent') ? main(request, mainCalls++) : sub(request);
}

function toolResults(request: ModelRequest): ToolResultBlock[] {
  const content = request.messages.at(-1)!.content;
  return typeof content === 'string'
    ? []
    : (content.filter((block) => block.type === 'tool_result') as ToolResultBlock[]);
}

describe('main-agent tools', () => {
  it('task (foreground) returns the sub-agent answer with a footer', async () => {
    const { runtime, model } = fixtureRuntime(
      byAgent(
        (request, call) =>
          call === 0
            ? toolReply('task', {
                description: 'Find auth',
                prompt: 'Find the auth code',
                subagent_type: 'explore',
              })
            : textReply(`The answer: ${(toolResults(request)[0]!.content as string).split('\n')[0]}`),
        () => textReply('auth lives in src/auth.ts'),
      ),
    );
    const session = runtime.createSession({ sessionKey: 's1' });
    const reply = await session.send('Where is auth handled?');
    expect(reply.text).toBe('The answer: auth lives in src/auth.ts');
    const footer = toolResults(model.requests.at(-1)!)[0]!.content as string;
    expect(footer).toMatch(
      /---\ntask_id: t_\S+ · agent: explore · 0 tool calls · \d+ms · 15 tokens · completed$/,
    );
    expect(runtime.list({ sessionKey: 's1' })).toHaveLength(1);
  });

  it('task restricts subagent_type to registered agents and lists them in its description', () => {
    const { runtime } = fixtureRuntime([]);
    const task = runtime.mainTools().find((tool) => tool.name === 'task')!;
    expect(task.description).toMatch(/- explore: Reads things\./);
    expect(
      (task.inputJsonSchema.properties as Record<string, { enum?: string[] }>).subagent_type!.enum,
    ).toEqual(['explore', 'general-purpose', 'writer']);
  });

  it('task with run_in_background returns the id at once; task_status and task_list report it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { runtime } = fixtureRuntime(
      byAgent(
        (request, call) => {
          if (call === 0)
            return toolReply('task', {
              description: 'Slow job',
              prompt: 'Do it',
              subagent_type: 'explore',
              run_in_background: true,
            });
          return textReply(String(toolResults(request)[0]?.content ?? ''));
        },
        () => gate.then(() => textReply('slow job result')) as never,
      ),
    );
    const session = runtime.createSession({ sessionKey: 's1' });
    const reply = await session.send('start it');
    const id = /Started task (\S+) in the background/.exec(reply.text)?.[1];
    expect(id).toBeDefined();
    const [status, list, cancel] = ['task_status', 'task_list', 'cancel_task'].map(
      (name) => runtime.mainTools().find((tool) => tool.name === name)!,
    );
    const context = {
      signal: new AbortController().signal,
      taskId: 'host',
      agent: 'main',
      toolUseId: 'x',
      sessionKey: 's1',
    };
    expect(await status!.execute({ task_id: id }, context)).toMatch(/status: running/);
    expect(await list!.execute({}, context)).toMatch(new RegExp(`${id}\\s+running\\s+explore\\s+Slow job`));
    expect(await status!.execute({ task_id: 'missing' }, context)).toBe(
      'Error: no task with id "missing" in this session.',
    );
    release();
    (await runtime.get(id!)) && (await new Promise((resolve) => runtime.on('task.completed', resolve)));
    expect(await status!.execute({ task_id: id }, context)).toMatch(
      /status: completed[\s\S]*output:\nslow job result/,
    );
    expect(await cancel!.execute({ task_id: id }, context)).toMatch(/had already ended \(completed\)/);
  });

  it('an unknown subagent_type is an error result for the main agent, not a crash', async () => {
    const { runtime, model } = fixtureRuntime(
      byAgent(
        (_request, call) =>
          call === 0
            ? toolReply('task', { description: 'x', prompt: 'x', subagent_type: 'nope' })
            : textReply('ok'),
        () => textReply('never'),
      ),
    );
    await runtime.createSession().send('go');
    const [result] = toolResults(model.requests.at(-1)!);
    expect(result).toMatchObject({ is_error: true });
    expect(result!.content).toMatch(
      /invalid input for tool "task": subagent_type: .*"explore" \| "general-purpose" \| "writer"/,
    );
  });

  it('spawn announces the result to the originating session, which tells the user', async () => {
    const { runtime } = fixtureRuntime(
      byAgent(
        (request, call) => {
          if (call === 0) return toolReply('spawn', { task: 'Count the TODOs', label: 'Count TODOs' });
          if (call === 1) return textReply('I started counting the TODOs in the background.');
          const last = request.messages.at(-1)!;
          return textReply(
            `Summary for the user: ${typeof last.content === 'string' ? last.content.includes('There are 7 TODOs') : false}`,
          );
        },
        () => textReply('There are 7 TODOs.'),
      ),
    );
    const session = runtime.createSession({ sessionKey: 'chat-1' });
    const messages: { kind: string; text: string }[] = [];
    session.on('message', (message) => messages.push(message));
    const announced = new Promise((resolve) => runtime.on('task.announced', resolve));
    await session.send('count the todos');
    const event = (await announced) as { sessionKey: string; message: string };
    expect(event.sessionKey).toBe('chat-1');
    expect(event.message).toMatch(/background work "Count TODOs" finished/);
    expect(event.message).toMatch(/Do not mention task ids/);
    expect(event.message).not.toMatch(/t_[0-9a-z]{6,}/);
    await new Promise((resolve) =>
      session.on('message', (message) => message.kind === 'reply' && resolve(message)),
    );
    // The announcement may arrive while the first run is still going; it is handled after it.
    expect(messages.map((message) => message.kind).sort()).toEqual(['announcement', 'reply', 'reply']);
    expect(
      session.messages
        .filter((message) => message.role === 'user')
        .map(
          (message) =>
            typeof message.content === 'string' && message.content.startsWith('[Background work update]'),
        ),
    ).toEqual([false, false, true]);
    expect(messages.at(-1)!.text).toBe('Summary for the user: true');
  });

  it('a failed background task is announced too', async () => {
    const { runtime } = fixtureRuntime(
      byAgent(
        (_request, call) => (call === 0 ? toolReply('spawn', { task: 'Loop forever' }) : textReply('ok')),
        (request) => (isGraceRequest(request) ? textReply('gave up') : toolReply('echo', { text: 'again' })),
      ),
      { limits: { maxTurns: 2 } },
    );
    const announced = new Promise<{ message: string }>((resolve) => runtime.on('task.announced', resolve));
    await runtime.createSession().send('go');
    expect((await announced).message).toMatch(
      /stopped before finishing \(it ran out of steps\)[\s\S]*gave up/,
    );
  });

  it('interrupting a session cancels its foreground sub-agents', async () => {
    const { runtime } = fixtureRuntime(
      byAgent(
        (_request, call) =>
          call === 0
            ? toolReply('task', { description: 'x', prompt: 'x', subagent_type: 'explore' })
            : textReply('ok'),
        () => toolReply('wait', {}),
      ),
    );
    const session = runtime.createSession();
    const reply = session.send('go');
    await settle(50);
    const [running] = runtime.list({ status: 'running' });
    expect(running).toBeDefined();
    expect(session.interrupt()).toBe(true);
    expect((await reply).result.status).toBe('cancelled');
    await settle(50);
    expect(runtime.get(running!.id)?.status).toBe('cancelled');
    expect(session.messages.at(-1)?.role).toBe('assistant');
  });
});

describe('agents added after createRuntime', () => {
  it('are announced to a session’s main agent in its next message, startable, while its task tool stays as first shown (its cached prefix kept)', async () => {
    const registry = createAgentRegistry({
      definitions: [{ name: 'explore', description: 'Reads things.', systemPrompt: 'x', tools: ['echo'] }],
    });
    const { runtime, model } = fixtureRuntime(
      (request) => {
        if (!request.system.includes('main agent')) return textReply('sub-agent answer');
        const results = toolResults(request);
        if (results.length) return textReply(String(results[0]!.content).split('\n')[0]!);
        return toolReply('task', { description: 'x', prompt: 'x', subagent_type: 'newcomer' });
      },
      { agents: registry },
    );
    const session = runtime.createSession();
    const first = await session.send('use the newcomer');
    expect(first.text).toMatch(/^Error: invalid input for tool "task": subagent_type/);
    registry.add({ name: 'newcomer', description: 'Joined later.', systemPrompt: 'x', tools: ['echo'] });
    const second = await session.send('use the newcomer');
    expect(second.text).toBe('sub-agent answer');
    const mainRequests = model.requests.filter((request) => request.system.includes('main agent'));
    // The tools are the first request's, byte for byte: the prefix tools → system → messages holds.
    expect(mainRequests.at(-1)!.tools).toEqual(mainRequests[0]!.tools);
    const asked = mainRequests.findLast((request) =>
      JSON.stringify(request.messages).includes('Joined later'),
    )!;
    const note = asked.messages
      .filter((message) => message.role === 'user' && typeof message.content === 'string')
      .at(-1)!;
    expect(note.content).toMatch(
      /^\[Agents available to the task tool since it was described[^\n]*\n- newcomer: Joined later\.\]\n\nuse the newcomer$/,
    );
    // Announced once: the next message carries no note.
    await session.send('again');
    const last = model.requests.filter((request) => request.system.includes('main agent')).at(-1)!;
    const lastUser = last.messages
      .filter((message) => message.role === 'user' && typeof message.content === 'string')
      .at(-1)!;
    expect(lastUser.content).toBe('again');
    // A new session describes every agent in its task tool.
    await runtime.createSession().send('use the newcomer');
    const fresh = model.requests.filter((request) => request.system.includes('main agent')).at(-2)!;
    const task = fresh.tools.find((tool) => tool.name === 'task')!;
    expect(task.description).toMatch(/- newcomer: Joined later\./);
    expect(
      (task.input_schema.properties as Record<string, { enum?: string[] }>).subagent_type!.enum,
    ).toContain('newcomer');
  });
});
