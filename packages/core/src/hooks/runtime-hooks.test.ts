import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../model/types.js';
import { replayTask } from '../replay/replay-task.js';
import { fixtureRuntime, memoryOfFiles, settle, turnOf } from '../runtime/test-fixtures.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
import type { RuntimeHooks, SubagentStopCall } from './hook-points.js';

const lastMessage = (request: ModelRequest) => JSON.stringify(request.messages[request.messages.length - 1]);

describe('runtime hooks', () => {
  it('a PreToolUse deny stops the call, the model reads the reason, and replay never asks the hook again', async () => {
    let asked = 0;
    const hooks: RuntimeHooks = {
      preToolUse: async (call) => {
        asked++;
        expect(call).toMatchObject({
          agentType: 'writer',
          toolName: 'shell',
          toolInput: { command: 'rm -rf /' },
        });
        return { decision: 'deny', reason: 'rm is not allowed here' };
      },
    };
    const { runtime, calls, store, model } = fixtureRuntime(
      (request) => (turnOf(request) === 1 ? toolReply('shell', { command: 'rm -rf /' }) : textReply('ok')),
      { hooks },
    );
    const { id, result } = runtime.spawn({ agent: 'writer', prompt: 'Clean up' });
    expect((await result).status).toBe('completed');
    expect(calls).toEqual([]);
    expect(lastMessage(model.requests[1]!)).toContain(
      'a PreToolUse hook blocked this shell call: rm is not allowed here',
    );
    const replay = await replayTask(store, id);
    expect(replay.matches).toBe(true);
    expect(asked).toBe(1);
  });

  it("a PreToolUse allow answers the host's question, never a policy's denial", async () => {
    const allow: RuntimeHooks = { preToolUse: async () => ({ decision: 'allow' }) };
    const asked = fixtureRuntime(
      (request) => (turnOf(request) === 1 ? toolReply('save', { note: 'n' }) : textReply('done')),
      { hooks: allow, approval: 'ask' },
    );
    const resolved: string[] = [];
    asked.runtime.on('approval.requested', () => resolved.push('host asked'));
    asked.runtime.on('approval.resolved', (event) => resolved.push(`${event.decision} by ${event.by}`));
    expect((await asked.runtime.spawn({ agent: 'writer', prompt: 'Save' }).result).status).toBe('completed');
    expect(asked.calls.map((call) => call.tool)).toEqual(['save']);
    expect(resolved).toEqual(['approve by hook']);

    const denied = fixtureRuntime(
      (request) => (turnOf(request) === 1 ? toolReply('save', { note: 'n' }) : textReply('done')),
      { hooks: allow, approval: () => ({ decision: 'deny', reason: 'deny rule Write(**)' }) },
    );
    await denied.runtime.spawn({ agent: 'writer', prompt: 'Save' }).result;
    expect(denied.calls).toEqual([]);
    expect(lastMessage(denied.model.requests[1]!)).toContain('deny rule Write(**)');
  });

  it('PostToolUse context is added to the tool result the model reads', async () => {
    const hooks: RuntimeHooks = {
      postToolUse: async (call) => ({ additionalContext: `checked ${call.toolResponse}` }),
    };
    const { runtime, model } = fixtureRuntime(
      (request) => (turnOf(request) === 1 ? toolReply('echo', { text: 'hi' }) : textReply('done')),
      { hooks },
    );
    await runtime.spawn({ agent: 'explore', prompt: 'Echo' }).result;
    expect(lastMessage(model.requests[1]!)).toContain('PostToolUse hook context: checked echo: hi');
  });

  it('a SubagentStop hook that blocks once makes the sub-agent go on once; the journal replays it', async () => {
    const stops: SubagentStopCall[] = [];
    const hooks: RuntimeHooks = {
      subagentStop: async (call) => {
        stops.push(call);
        return call.stopHookActive ? undefined : { block: 'Run the tests before you stop.' };
      },
    };
    const { runtime, model, store } = fixtureRuntime((request) => textReply(`answer ${turnOf(request)}`), {
      hooks,
    });
    const { id, result } = runtime.spawn({ agent: 'explore', prompt: 'Fix it' });
    const final = await result;
    expect(final).toMatchObject({ status: 'completed', output: 'answer 2', turns: 2 });
    expect(lastMessage(model.requests[1]!)).toContain('Stop hook feedback: Run the tests before you stop.');
    expect(stops.map((call) => [call.lastAssistantMessage, call.stopHookActive])).toEqual([
      ['answer 1', false],
      ['answer 2', true],
    ]);
    expect((await replayTask(store, id)).matches).toBe(true);
    expect(stops).toHaveLength(2);
  });

  it('SubagentStart context reaches the first request with the prompt', async () => {
    const hooks: RuntimeHooks = {
      subagentStart: async (call) => ({ additionalContext: `you are ${call.agentType}` }),
    };
    const { runtime, model, store } = fixtureRuntime([textReply('done')], { hooks });
    const { id, result } = runtime.spawn({ agent: 'explore', prompt: 'Look' });
    await result;
    const first = lastMessage(model.requests[0]!);
    expect(first).toContain('Look');
    expect(first).toContain('SubagentStart hook context: you are explore');
    expect((await replayTask(store, id)).matches).toBe(true);
  });

  it('a restored task never asks its hooks again about a step the journal holds', async () => {
    const asked: string[] = [];
    const hooks: RuntimeHooks = {
      subagentStart: async () => {
        asked.push('start');
        return { additionalContext: 'from the start hook' };
      },
      preToolUse: async () => {
        asked.push('pre');
        return { decision: 'ask' };
      },
    };
    const script = (request: ModelRequest) =>
      turnOf(request) === 1 ? toolReply('echo', { text: 'x' }) : textReply(`done: ${lastMessage(request)}`);
    const first = fixtureRuntime(script, { hooks, approval: 'ask' });
    const { id } = first.runtime.spawn({ agent: 'explore', prompt: 'Echo' });
    await settle(60);
    // The hook sent the read call to the host: the task waits for the approval when the runtime stops.
    expect(first.runtime.get(id)?.status).toBe('awaitingApproval');
    expect(asked).toEqual(['start', 'pre']);
    await first.runtime.shutdown({ keepTasks: true });

    const second = fixtureRuntime(script, { hooks, approval: 'auto', store: first.store });
    await second.runtime.restore();
    const result = await second.runtime.result(id);
    expect(result?.status).toBe('completed');
    expect(asked).toEqual(['start', 'pre']);
    expect(String(result?.output)).toContain('echo: x');
    expect(JSON.stringify(second.model.requests[0]?.messages[0])).toContain('from the start hook');
  });

  it('a hook that throws is a warning and no answer', async () => {
    const hooks: RuntimeHooks = {
      preToolUse: async () => {
        throw new Error('hook crashed');
      },
    };
    const { runtime, calls } = fixtureRuntime(
      (request) => (turnOf(request) === 1 ? toolReply('echo', { text: 'x' }) : textReply('done')),
      { hooks },
    );
    const warnings: string[] = [];
    runtime.on('runtime.warning', (warning) => warnings.push(`${warning.code}: ${warning.message}`));
    await runtime.spawn({ agent: 'explore', prompt: 'Echo' }).result;
    expect(calls.map((call) => call.tool)).toEqual(['echo']);
    expect(warnings.join('\n')).toContain('HOOK_FAILED: Task');
    expect(warnings.join('\n')).toContain('hook crashed');
  });
});

describe('skills and memory', () => {
  it('a listed skill is preloaded into the first request; an unknown one is a warning naming the file', async () => {
    const { runtime, model } = fixtureRuntime([textReply('done')], {
      agents: [
        {
          name: 'reviewer',
          description: 'Reviews.',
          systemPrompt: 'You review.',
          path: '/p/.claude/agents/reviewer.md',
          skills: ['style-guide', 'missing-one'],
        },
      ],
      skills: [
        { name: 'style-guide', content: 'Always use tabs.', path: '/p/.claude/skills/style-guide/SKILL.md' },
      ],
    });
    const warnings: string[] = [];
    runtime.on('runtime.warning', (warning) => warnings.push(`${warning.code}: ${warning.message}`));
    await runtime.spawn({ agent: 'reviewer', prompt: 'Review' }).result;
    expect(model.requests[0]!.system).toContain('<skill name="style-guide">\nAlways use tabs.\n</skill>');
    expect(warnings).toEqual([
      expect.stringContaining(
        'SKILL_NOT_FOUND: Agent "reviewer" (/p/.claude/agents/reviewer.md) lists skill "missing-one"',
      ),
    ]);
  });

  it('a too-large skill is cut with a note', async () => {
    const { runtime, model } = fixtureRuntime([textReply('done')], {
      agents: [{ name: 'big', description: 'B.', systemPrompt: 'B.', skills: ['huge'] }],
      skills: [{ name: 'huge', content: 'x'.repeat(50_000), path: 'huge/SKILL.md' }],
    });
    await runtime.spawn({ agent: 'big', prompt: 'Go' }).result;
    expect(model.requests[0]!.system).toContain(
      '[The skill was cut here: 10,000 more characters in huge/SKILL.md were not loaded.]',
    );
    expect(model.requests[0]!.system.length).toBeLessThan(41_000);
  });

  it('an agent with memory reads MEMORY.md at start and gets its memory tools whatever its allow-list', async () => {
    const { files, memory } = memoryOfFiles('- the build needs Node 20');
    const { runtime, model } = fixtureRuntime(
      (request) =>
        turnOf(request) === 1
          ? toolReply('memory_write', { file_path: 'MEMORY.md', content: '- the build needs Node 22' })
          : textReply('noted'),
      {
        memory,
        agents: [
          {
            name: 'learner',
            description: 'L.',
            systemPrompt: 'L.',
            tools: ['echo'],
            memory: 'project',
          },
        ],
      },
    );
    await runtime.spawn({ agent: 'learner', prompt: 'Learn' }).result;
    const first = model.requests[0]!;
    expect(lastMessage(first)).toContain('the build needs Node 20');
    expect(lastMessage(first)).toContain('/memory/project/learner/');
    expect(first.tools.map((tool) => tool.name)).toEqual(['echo', 'memory_write']);
    expect(files.get('MEMORY.md')).toBe('- the build needs Node 22');
  });
});
