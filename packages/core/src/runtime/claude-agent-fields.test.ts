import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../definitions/types.js';
import type { ApprovalRequest, RuntimeWarning } from '../events.js';
import type { ModelRequest } from '../model/types.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
import type { ApprovalPolicy } from './approvals.js';
import { fixtureAgents, fixtureRuntime, hang, settle } from './test-fixtures.js';

// Each agent calls `save` (a write tool) then `shell` (an execute tool), then answers.
const saveThenShell = (request: ModelRequest) => {
  const turn = request.messages.filter((message) => message.role === 'assistant').length;
  if (turn === 0) return toolReply('save', { note: 'n' }, { id: 'w' });
  if (turn === 1) return toolReply('shell', { command: 'ls' }, { id: 'x' });
  return textReply('done');
};
const agent = (extra: Partial<AgentDefinition>): AgentDefinition => ({
  name: 'worker',
  description: 'Works.',
  systemPrompt: 'You work.',
  tools: ['echo', 'save', 'shell'],
  ...extra,
});

/** Runs one `worker` task; returns what each call's result said and what the host was asked. */
async function runMode(
  extra: Partial<AgentDefinition>,
  approval: ApprovalPolicy,
  options: { allowBypass?: boolean } = {},
) {
  const { runtime, model, calls } = fixtureRuntime(saveThenShell, {
    agents: [agent(extra)],
    approval,
    ...(options.allowBypass ? { permissionModes: { allowBypassPermissions: true } } : {}),
  });
  const asked: string[] = [];
  const warnings: RuntimeWarning[] = [];
  runtime.on('runtime.warning', (warning) => warnings.push(warning));
  runtime.on('approval.requested', (request: ApprovalRequest) => {
    asked.push(request.tool);
    runtime.deny(request.id, 'the user said no');
  });
  const result = await runtime.spawn({ agent: 'worker', prompt: 'go' }).result;
  const results = model.requests
    .slice(1)
    .map((request) => JSON.stringify(request.messages.at(-1)?.content))
    .map((text) =>
      text.includes('is_error":true') ? `denied: ${/denied[^"]*/.exec(text)?.[0] ?? text}` : 'ran',
    );
  return { result, asked, ran: calls.map((call) => call.tool), results, warnings, model };
}

describe('permissionMode', () => {
  it('default asks the host for write and execute tools', async () => {
    const run = await runMode({}, 'ask');
    expect(run.asked).toEqual(['save', 'shell']);
    expect(run.ran).toEqual([]);
  });

  it('plan offers only read tools, and denies a write even under an approving policy', async () => {
    const run = await runMode({ permissionMode: 'plan' }, 'auto');
    expect(run.model.requests[0]!.tools.map((tool) => tool.name)).toEqual(['echo']);
    expect(run.ran).toEqual([]);
    expect(run.asked).toEqual([]);
  });

  it('acceptEdits approves workspace edits and still asks for execute tools', async () => {
    const run = await runMode({ permissionMode: 'acceptEdits' }, 'ask');
    expect(run.ran).toEqual(['save']);
    expect(run.asked).toEqual(['shell']);
  });

  it('dontAsk denies what would ask, and runs what the rules pre-approve', async () => {
    const rules: ApprovalPolicy = (request) => (request.tool === 'shell' ? 'approve' : 'ask');
    const run = await runMode({ permissionMode: 'dontAsk' }, rules);
    expect(run.asked).toEqual([]);
    expect(run.ran).toEqual(['shell']);
    expect(run.results[0]).toContain('denied');
  });

  it('bypassPermissions without the host allowing it runs as default, with a warning', async () => {
    const run = await runMode({ permissionMode: 'bypassPermissions' }, 'ask');
    expect(run.asked).toEqual(['save', 'shell']);
    expect(run.warnings.map((warning) => warning.code)).toEqual(['PERMISSION_MODE_CHANGED']);
    expect(run.warnings[0]!.message).toContain('allowBypassPermissions');
  });

  it('bypassPermissions, where the host allows it, runs without asking', async () => {
    const run = await runMode({ permissionMode: 'bypassPermissions' }, 'ask', { allowBypass: true });
    expect(run.asked).toEqual([]);
    expect(run.ran).toEqual(['save', 'shell']);
  });

  it('no mode bypasses a deny rule or a policy that refuses', async () => {
    const denyShell: ApprovalPolicy = (request) =>
      request.tool === 'shell' ? { decision: 'deny', reason: 'deny rule Bash(*)' } : 'ask';
    for (const permissionMode of ['acceptEdits', 'bypassPermissions', 'dontAsk'] as const) {
      const run = await runMode({ permissionMode }, denyShell, { allowBypass: true });
      expect(run.ran, permissionMode).not.toContain('shell');
    }
    for (const permissionMode of ['acceptEdits', 'bypassPermissions'] as const) {
      const run = await runMode({ permissionMode }, 'deny', { allowBypass: true });
      expect(run.ran, permissionMode).toEqual([]);
    }
  });

  it('is kept with the task: a restored task runs in the same mode', async () => {
    const run = await runMode({ permissionMode: 'acceptEdits' }, 'ask');
    expect(run.result.status).toBe('completed');
    // The spec is persisted with its mode, so a restore (which reads the spec) keeps it.
    const { runtime, store } = fixtureRuntime([textReply('ok')], {
      agents: [agent({ permissionMode: 'plan' })],
    });
    const handle = runtime.spawn({ agent: 'worker', prompt: 'go' });
    await handle.result;
    const stored = (await store.loadTasks()).tasks.find((task) => task.spec.taskId === handle.id)!;
    expect(stored.spec.permissionMode).toBe('plan');
    expect(stored.spec.tools).toEqual(['echo']);
  });
});

describe('effort, initialPrompt, Agent(...) and nesting', () => {
  it("effort sets the model request's thinking budget on every turn", async () => {
    const { runtime, model } = fixtureRuntime([toolReply('echo', { text: 'a' }), textReply('ok')], {
      agents: [agent({ effort: 'high' }), agent({ name: 'plain' })],
    });
    await runtime.spawn({ agent: 'worker', prompt: 'go' }).result;
    expect(model.requests.map((request) => request.thinking)).toEqual([
      { budgetTokens: 16_384 },
      { budgetTokens: 16_384 },
    ]);
    await runtime.spawn({ agent: 'plain', prompt: 'go' }).result;
    expect(model.requests.at(-1)!.thinking).toBeUndefined();
  });

  it('initialPrompt is prepended to a task prompt, and is the first user turn of a main agent', async () => {
    const { runtime, model } = fixtureRuntime(() => textReply('ok'), {
      agents: [
        agent({ initialPrompt: 'Read the style guide first.' }),
        agent({ name: 'main', initialPrompt: 'Check the open issues.' }),
      ],
    });
    await runtime.spawn({ agent: 'worker', prompt: 'Fix the bug' }).result;
    expect(model.requests[0]!.messages[0]!.content).toBe('Read the style guide first.\n\nFix the bug');
    const session = runtime.createSession({ agent: 'main' });
    await session.send('hello');
    await session.send('again');
    const [first, second] = model.requests.slice(1);
    expect(first!.messages[0]!.content).toBe('Check the open issues.\n\nhello');
    expect(second!.messages.at(-1)!.content).toBe('again');
  });

  it('Agent(explore) in tools gives the task tool and refuses any other agent, naming the allowed ones', async () => {
    const lead = agent({ name: 'lead', tools: ['echo', 'Agent(explore)'] });
    const answers: string[] = [];
    const { runtime, model } = fixtureRuntime(
      (request) => {
        if (request.system === 'You work.') {
          const turn = request.messages.filter((message) => message.role === 'assistant').length;
          const last = JSON.stringify(request.messages.at(-1)?.content);
          if (turn > 0) answers.push(last);
          if (turn === 0)
            return toolReply('task', { description: 'd', prompt: 'p', subagent_type: 'writer' }, { id: 'a' });
          if (turn === 1)
            return toolReply(
              'task',
              { description: 'd', prompt: 'p', subagent_type: 'explore' },
              { id: 'b' },
            );
          return textReply('lead done');
        }
        return textReply('explored');
      },
      { agents: [...fixtureAgents, lead] },
    );
    await runtime.spawn({ agent: 'lead', prompt: 'go' }).result;
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toEqual(['echo', 'task']);
    // The task tool offers only the allowed agent.
    const taskSpec = model.requests[0]!.tools.find((tool) => tool.name === 'task')!;
    expect(
      (taskSpec.input_schema as { properties: { subagent_type: { enum: string[] } } }).properties
        .subagent_type.enum,
    ).toEqual(['explore']);
    expect(answers[0]).toContain('may start only \\"explore\\"');
    expect(answers[1]).toContain('explored');
  });

  it('nests three levels by default; a child never outspends or outlives its parent', async () => {
    const chain = ['one', 'two', 'three'].map((name) =>
      agent({ name, systemPrompt: name, tools: ['echo', 'task'] }),
    );
    const next: Record<string, string> = { one: 'two', two: 'three', three: 'one' };
    const { runtime, model, clock } = fixtureRuntime(
      (request, { signal }) => {
        const turn = request.messages.filter((message) => message.role === 'assistant').length;
        if (turn === 0)
          return toolReply(
            'task',
            { description: 'deeper', prompt: 'go', subagent_type: next[request.system]! },
            { usage: { input: 100, output: 50 } },
          );
        if (request.system === 'three') return textReply('three done');
        return hang(signal);
      },
      { agents: chain, limits: { tokenBudget: 1000, timeoutMs: 60_000 } },
    );
    runtime.spawn({ agent: 'one', prompt: 'go' });
    await settle(60);
    clock.advance(1);
    await settle(60);
    const tasks = await runtime.store.loadTasks();
    const byAgent = Object.fromEntries(tasks.tasks.map((task) => [task.spec.agent, task.spec]));
    expect(byAgent.two!.depth).toBe(2);
    expect(byAgent.three!.depth).toBe(3);
    // Depth 3 is the last: its task tool is withheld, and a call to it is refused.
    expect(byAgent.three!.tools).toEqual(['echo']);
    expect(byAgent.two!.limits.tokenBudget).toBe(850);
    expect(byAgent.three!.limits.tokenBudget).toBe(700);
    expect(byAgent.three!.deadlineCap).toBe(byAgent.two!.deadlineCap);
    const threeRequests = model.requests.filter((request) => request.system === 'three');
    expect(JSON.stringify(threeRequests[1]!.messages.at(-1)!.content)).toContain('is_error');
  });
});
