import { describe, expect, it } from 'vitest';
import type { Message, ModelRequest, ToolResultBlock } from '../model/types.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
import { FORK_SEPARATOR, forkContext } from './fork-context.js';
import { fixtureRuntime, hang, settle } from './test-fixtures.js';

describe('forkContext', () => {
  const parent: Message[] = [
    { role: 'user', content: 'Fix the login bug' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'plan', signature: 'sig' },
        { type: 'text', text: 'Looking.' },
        { type: 'tool_use', id: 'r1', name: 'read', input: { file_path: 'src/login.ts' } },
        { type: 'tool_use', id: 'w1', name: 'web_search', input: { query: 'jwt expiry' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'r1', content: 'export function login() {}' },
        { type: 'tool_result', tool_use_id: 'w1', content: 'JWTs expire after exp.', is_error: false },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Delegating.' },
        { type: 'tool_use', id: 't1', name: 'task', input: { prompt: 'investigate' } },
      ],
    },
  ];

  it('keeps calls the child can make, summarises the rest, drops orphans and thinking, and marks the fork', () => {
    const forked = forkContext(parent, (name) => name === 'read', 'Investigate the token expiry');
    expect(forked).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Fix the login bug' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool_use', id: 'r1', name: 'read', input: { file_path: 'src/login.ts' } },
          { type: 'text', text: '[Called tool web_search with {"query":"jwt expiry"}]' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'r1', content: 'export function login() {}' },
          { type: 'text', text: '[web_search returned: JWTs expire after exp.]' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Delegating.' }] },
      {
        role: 'user',
        content: [{ type: 'text', text: `${FORK_SEPARATOR}\n\nInvestigate the token expiry` }],
      },
    ]);
  });

  it('a sub-agent with forkContext receives the parent conversation; others only their prompt', async () => {
    const requests: ModelRequest[] = [];
    const { runtime, model } = fixtureRuntime(
      (request) => {
        if (
          request.system.includes('main agent') &&
          !JSON.stringify(request.messages).includes(FORK_SEPARATOR)
        )
          return request.messages.length === 1
            ? {
                content: [
                  {
                    type: 'tool_use',
                    id: 'a',
                    name: 'task',
                    input: { description: 'd', prompt: 'forked task', subagent_type: 'forker' },
                  },
                  {
                    type: 'tool_use',
                    id: 'b',
                    name: 'task',
                    input: { description: 'd', prompt: 'plain task', subagent_type: 'explore' },
                  },
                ],
              }
            : textReply('ok');
        requests.push(request);
        return textReply('child done');
      },
      {
        agents: [
          { name: 'forker', description: 'x', systemPrompt: 'x', tools: ['echo'], forkContext: true },
          { name: 'explore', description: 'x', systemPrompt: 'x', tools: ['echo'] },
        ],
      },
    );
    await runtime.createSession().send('Please look into the cache');
    const main = model.requests.find((request) => request.system.includes('main agent'))!;
    const forked = requests.find((request) => JSON.stringify(request.messages).includes('forked task'))!;
    const plain = requests.find((request) => JSON.stringify(request.messages).includes('plain task'))!;
    // The fork sends the main agent's tools, system prompt and conversation unchanged (so it reads
    // their cache), then its own instructions as one more block of the last user message.
    expect(forked.tools).toEqual(main.tools);
    expect(forked.system).toBe(main.system);
    expect(forked.messages).toHaveLength(1);
    const blocks = forked.messages[0]!.content as { type: string; text: string }[];
    expect(blocks[0]).toEqual({ type: 'text', text: 'Please look into the cache' });
    expect(blocks[1]!.text).toContain(FORK_SEPARATOR);
    expect(blocks[1]!.text).toContain('You may call only these tools: echo.');
    expect(blocks[1]!.text).toMatch(/Your task:\nforked task$/);
    expect(plain.messages).toEqual([{ role: 'user', content: 'plain task' }]);
  });
});

describe('a fork that keeps the parent’s cached prefix', () => {
  it('refuses, at execution, a call to a parent tool the child’s agent may not use, with an error the model sees', async () => {
    const childRequests: ModelRequest[] = [];
    const { runtime, calls } = fixtureRuntime(
      (request) => {
        const text = JSON.stringify(request.messages);
        if (!text.includes(FORK_SEPARATOR))
          return text.includes('tool_result')
            ? textReply('main done')
            : toolReply('task', { description: 'd', prompt: 'forked task', subagent_type: 'forker' });
        childRequests.push(request);
        // The child sees the parent's tools (save among them) and calls one it is not allowed.
        return childRequests.length === 1 ? toolReply('save', { note: 'secret' }) : textReply('child done');
      },
      {
        agents: [{ name: 'forker', description: 'x', systemPrompt: 'x', tools: ['echo'], forkContext: true }],
        approval: 'auto',
      },
    );
    await runtime.createSession().send('Fork please');
    expect(childRequests[0]!.tools.map((tool) => tool.name)).toContain('save');
    expect(calls.filter((call) => call.tool === 'save')).toEqual([]);
    const refused = (childRequests[1]!.messages.at(-1)!.content as ToolResultBlock[])[0]!;
    expect(refused).toMatchObject({ type: 'tool_result', is_error: true });
    expect(refused.content).toBe(
      'Error: there is no tool named "save" available to you. Available tools: echo.',
    );
  });

  it('on another model than the parent’s, sends the normalised context with its own tools and system', async () => {
    const requests: ModelRequest[] = [];
    const { runtime } = fixtureRuntime(
      (request) => {
        requests.push(request);
        if (request.system.includes('main agent'))
          return request.messages.length === 1
            ? toolReply('task', { description: 'd', prompt: 'forked task', subagent_type: 'forker' })
            : textReply('ok');
        return textReply('child done');
      },
      {
        agents: [
          {
            name: 'forker',
            description: 'x',
            systemPrompt: 'child',
            tools: ['echo'],
            forkContext: true,
            model: 'haiku',
          },
        ],
      },
    );
    await runtime.createSession().send('Please look into the cache');
    const forked = requests.find((request) => JSON.stringify(request.messages).includes('forked task'))!;
    expect(forked.system).toBe('child');
    expect(forked.tools.map((tool) => tool.name)).toEqual(['echo']);
    expect(forked.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Please look into the cache' },
          { type: 'text', text: `${FORK_SEPARATOR}\n\nforked task` },
        ],
      },
    ]);
  });
});

describe('nesting', () => {
  const nestingAgents = [
    { name: 'lead', description: 'x', systemPrompt: 'lead', tools: ['task', 'echo'] },
    { name: 'explore', description: 'x', systemPrompt: 'explore', tools: ['echo'] },
  ];

  it('is off with maxDepth 1: sub-agents get no task tools even when their allow-list names them', async () => {
    const { runtime, model } = fixtureRuntime([textReply('ok')], {
      agents: nestingAgents,
      limits: { maxDepth: 1 },
    });
    await runtime.spawn({ agent: 'lead', prompt: 'x' }).result;
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toEqual(['echo']);
  });

  it('with maxDepth 2 a child spawns a grandchild whose budget and deadline fit in what the child has left', async () => {
    const { runtime, model, clock } = fixtureRuntime(
      (request, { signal }) => {
        if (request.system === 'lead')
          return request.messages.length === 1
            ? toolReply(
                'task',
                { description: 'nested', prompt: 'go deeper', subagent_type: 'explore' },
                { usage: { input: 600, output: 100 } },
              )
            : textReply('lead done');
        return hang(signal);
      },
      { agents: nestingAgents, limits: { maxDepth: 2, tokenBudget: 1000, timeoutMs: 60_000 } },
    );
    const lead = runtime.spawn({ agent: 'lead', prompt: 'x' });
    await settle();
    clock.advance(10_000);
    await settle();
    const [child] = runtime.list({ agent: 'explore' });
    expect(child).toMatchObject({ depth: 2, parentTaskId: lead.id, status: 'running' });
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toEqual(['echo', 'task']);
    const spec = (await runtime.store.loadTasks()).tasks.find((task) => task.spec.taskId === child!.id)!.spec;
    expect(spec.limits.tokenBudget).toBe(300);
    expect(spec.deadlineCap).toBe(runtime.get(lead.id)!.createdAt + 60_000);
    expect(spec.limits.timeoutMs).toBe(60_000);
    // The grandchild cannot outlive the child: the child's deadline ends it.
    clock.advance(50_000);
    await settle(50);
    expect(runtime.get(child!.id)?.status).not.toBe('running');
    await lead.result;
  });

  it('refuses a spawn beyond maxDepth with a clear error', () => {
    const { runtime } = fixtureRuntime([textReply('ok')], { agents: nestingAgents });
    expect(() => runtime.spawn({ agent: 'explore', prompt: 'x', parentTaskId: 'missing' })).toThrow(
      /Parent task "missing" is not running/,
    );
  });
});
