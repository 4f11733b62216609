import { describe, expect, it } from 'vitest';
import type { ContentBlock, ModelRequest } from '../model/types.js';
import { replayTask } from '../replay/replay-task.js';
import { fixtureRuntime, settle, turnOf } from '../runtime/test-fixtures.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
import type { PostToolUseFailureCall, PreToolUseCall, RuntimeHooks } from './hook-points.js';

const lastMessage = (request: ModelRequest) => JSON.stringify(request.messages[request.messages.length - 1]);
const uses = (...calls: [string, string, unknown][]): { content: ContentBlock[] } => ({
  content: calls.map(([id, name, input]) => ({ type: 'tool_use' as const, id, name, input })),
});

describe('hook outputs', () => {
  it('updatedInput changes what runs (checked against the schema) and replays identically', async () => {
    const hooks: RuntimeHooks = {
      preToolUse: async (call) =>
        call.toolName === 'shell'
          ? {
              decision: 'allow',
              updatedInput: { command: `${(call.toolInput as { command: string }).command} --dry-run` },
            }
          : undefined,
    };
    const { runtime, calls, store, model } = fixtureRuntime(
      (request) => (turnOf(request) === 1 ? toolReply('shell', { command: 'make deploy' }) : textReply('ok')),
      { hooks, approval: 'ask' },
    );
    const approvals: unknown[] = [];
    runtime.on('approval.requested', (request) => approvals.push(request.input));
    const { id, result } = runtime.spawn({ agent: 'writer', prompt: 'Deploy' });
    expect((await result).status).toBe('completed');
    expect(calls.map((call) => call.input)).toEqual([{ command: 'make deploy --dry-run' }]);
    // `allow` answered the host's question; the model's own block is left as it sent it.
    expect(approvals).toEqual([]);
    expect(JSON.stringify(model.requests[1]!.messages[1])).toContain('"command":"make deploy"');
    expect(lastMessage(model.requests[1]!)).toContain('ran make deploy --dry-run');
    const replay = await replayTask(store, id);
    expect(replay.matches).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it('an updatedInput the schema refuses is an error result naming the hook, never run', async () => {
    const hooks: RuntimeHooks = {
      preToolUse: async () => ({ updatedInput: { command: 42 }, source: '`fix.sh` (settings.json)' }),
    };
    const { runtime, calls, model } = fixtureRuntime(
      (request) => (turnOf(request) === 1 ? toolReply('shell', { command: 'ls' }) : textReply('ok')),
      { hooks },
    );
    const warnings: string[] = [];
    runtime.on('runtime.warning', (warning) => warnings.push(`${warning.code}: ${warning.message}`));
    await runtime.spawn({ agent: 'writer', prompt: 'List' }).result;
    expect(calls).toEqual([]);
    expect(lastMessage(model.requests[1]!)).toContain(
      "the input the PreToolUse hook (`fix.sh` (settings.json)) put in its place does not match the tool's schema",
    );
    expect(warnings.join('\n')).toContain('HOOK_FAILED');
  });

  it('PreToolUse additionalContext reaches the model in the next request; systemMessage is for the user', async () => {
    const hooks: RuntimeHooks = {
      preToolUse: async () => ({ additionalContext: 'the staging server is down', systemMessage: 'checked' }),
    };
    const { runtime, model } = fixtureRuntime(
      (request) => (turnOf(request) === 1 ? toolReply('echo', { text: 'hi' }) : textReply('done')),
      { hooks },
    );
    const warnings: string[] = [];
    runtime.on('runtime.warning', (warning) => warnings.push(`${warning.code}: ${warning.message}`));
    await runtime.spawn({ agent: 'explore', prompt: 'Echo' }).result;
    const next = lastMessage(model.requests[1]!);
    expect(next).toContain('echo: hi');
    expect(next).toContain('PreToolUse hook context: the staging server is down');
    expect(next).not.toContain('checked');
    expect(warnings).toEqual([expect.stringMatching(/^HOOK_MESSAGE: Task .*: PreToolUse hook: checked$/)]);
  });

  it('continue: false stops the task with the reason, naming the hook; replay reproduces it', async () => {
    const hooks: RuntimeHooks = {
      preToolUse: async () => ({ stop: 'deploys are frozen', source: '`freeze.sh` (.claude/settings.json)' }),
    };
    const { runtime, calls, store, model } = fixtureRuntime([toolReply('shell', { command: 'deploy' })], {
      hooks,
    });
    const { id, result } = runtime.spawn({ agent: 'writer', prompt: 'Deploy' });
    const final = await result;
    expect(final).toMatchObject({
      status: 'cancelled',
      terminateReason: 'ABORTED',
      error: {
        code: 'HOOK_STOPPED',
        message: 'Stopped by a PreToolUse hook (`freeze.sh` (.claude/settings.json)): deploys are frozen',
      },
    });
    expect(calls).toEqual([]);
    expect(model.requests).toHaveLength(1);
    expect((await replayTask(store, id)).matches).toBe(true);
  });

  it('continue: false from PostToolUse stops after the call; from SubagentStart before the first turn', async () => {
    const after = fixtureRuntime([toolReply('echo', { text: 'x' })], {
      hooks: { postToolUse: async () => ({ stop: 'enough' }) },
    });
    const stopped = await after.runtime.spawn({ agent: 'explore', prompt: 'Echo' }).result;
    expect(stopped.error?.message).toBe('Stopped by a PostToolUse hook: enough');
    expect(after.calls).toHaveLength(1);
    expect(after.model.requests).toHaveLength(1);

    const before = fixtureRuntime([textReply('never')], {
      hooks: { subagentStart: async () => ({ stop: 'not today' }) },
    });
    const { id, result } = before.runtime.spawn({ agent: 'explore', prompt: 'Look' });
    expect(await result).toMatchObject({ status: 'cancelled', error: { code: 'HOOK_STOPPED' } });
    expect(before.model.requests).toHaveLength(0);
    expect((await replayTask(before.store, id)).matches).toBe(true);
  });

  it('PostToolUseFailure fires once per failed call, with the error; its context reaches the model', async () => {
    const failures: PostToolUseFailureCall[] = [];
    let successes = 0;
    const hooks: RuntimeHooks = {
      postToolUse: async () => {
        successes++;
        return undefined;
      },
      postToolUseFailure: async (call) => {
        failures.push(call);
        return { additionalContext: 'the disk is full, free space first' };
      },
    };
    const { runtime, model } = fixtureRuntime(
      (request) =>
        turnOf(request) === 1
          ? uses(['b1', 'boom', {}], ['e1', 'echo', { text: 'x' }], ['b2', 'boom', {}])
          : textReply('done'),
      { hooks },
    );
    await runtime.spawn({ agent: 'explore', prompt: 'Try' }).result;
    expect(failures.map((call) => [call.toolUseId, call.isInterrupt])).toEqual([
      ['b1', false],
      ['b2', false],
    ]);
    expect(failures[0]!.error).toContain('disk on fire');
    expect(successes).toBe(1);
    expect(lastMessage(model.requests[1]!)).toContain(
      'PostToolUseFailure hook context: the disk is full, free space first',
    );
  });

  it('PreToolUse runs just before each call: a later call is asked after the earlier ones ran', async () => {
    const seen: string[] = [];
    const order: string[] = [];
    const hooks: RuntimeHooks = {
      preToolUse: async (call: PreToolUseCall) => {
        order.push(`hook ${call.toolUseId}`);
        return undefined;
      },
    };
    const { runtime, calls } = fixtureRuntime(
      (request) =>
        turnOf(request) === 1
          ? uses(['s1', 'save', { note: 'a' }], ['r1', 'echo', { text: 'b' }], ['r2', 'echo', { text: 'c' }])
          : textReply('done'),
      { hooks },
    );
    runtime.on('tool.started', (event) => order.push(`run ${event.toolUseId}`));
    await runtime.spawn({ agent: 'writer', prompt: 'Go' }).result;
    for (const call of calls) seen.push(call.tool);
    expect(seen).toEqual(['save', 'echo', 'echo']);
    // The write call's hook, its run; then the two read calls' hooks together, then both run together.
    expect(order).toEqual(['hook s1', 'run s1', 'hook r1', 'hook r2', 'run r1', 'run r2']);
  });

  it('a restore after the hook answered and before the call ran never asks the hook again', async () => {
    const asked: string[] = [];
    const hooks: RuntimeHooks = {
      preToolUse: async (call) => {
        asked.push(call.toolUseId);
        return { decision: 'ask', updatedInput: { note: 'rewritten' } };
      },
    };
    const script = (request: ModelRequest) =>
      turnOf(request) === 1 ? uses(['w1', 'save', { note: 'original' }]) : textReply('done');
    const first = fixtureRuntime(script, { hooks, approval: 'ask' });
    const requested: unknown[] = [];
    first.runtime.on('approval.requested', (request) => requested.push(request.input));
    const { id } = first.runtime.spawn({ agent: 'writer', prompt: 'Save' });
    await settle(60);
    expect(first.runtime.get(id)?.status).toBe('awaitingApproval');
    expect(requested).toEqual([{ note: 'rewritten' }]);
    await first.runtime.shutdown({ keepTasks: true });

    const second = fixtureRuntime(script, { hooks, approval: 'auto', store: first.store });
    await second.runtime.restore();
    expect((await second.runtime.result(id))?.status).toBe('completed');
    expect(asked).toEqual(['w1']);
    expect(second.calls.map((call) => call.input)).toEqual([{ note: 'rewritten' }]);
    expect((await replayTask(second.store, id)).matches).toBe(true);
  });
});

describe("a session's main agent", () => {
  it('gets Stop hooks (a block keeps it going once) and UserPromptSubmit context', async () => {
    let stops = 0;
    const hooks: RuntimeHooks = {
      userPromptSubmit: async (call) => ({ additionalContext: `branch main, asked: ${call.prompt}` }),
      stop: async (call) => {
        stops++;
        return call.stopHookActive ? undefined : { block: 'Say which files you changed.' };
      },
      subagentStop: async () => {
        throw new Error('a main agent is not a sub-agent');
      },
    };
    const { runtime, model } = fixtureRuntime((request) => textReply(`reply ${turnOf(request)}`), { hooks });
    const session = runtime.createSession({ sessionKey: 's' });
    const reply = await session.send('Fix the bug');
    expect(reply.text).toBe('reply 2');
    expect(stops).toBe(2);
    expect(lastMessage(model.requests[0]!)).toContain(
      'UserPromptSubmit hook context: branch main, asked: Fix the bug',
    );
    expect(lastMessage(model.requests[1]!)).toContain('Stop hook feedback: Say which files you changed.');
    await runtime.shutdown();
  });

  it('a UserPromptSubmit block stops the run before the model reads the prompt', async () => {
    const hooks: RuntimeHooks = { userPromptSubmit: async () => ({ block: 'no secrets in prompts' }) };
    const { runtime, model } = fixtureRuntime([textReply('never')], { hooks });
    const session = runtime.createSession({ sessionKey: 's' });
    const reply = await session.send('my password is hunter2');
    expect(reply.result).toMatchObject({
      status: 'cancelled',
      error: {
        code: 'HOOK_STOPPED',
        message: 'The prompt was blocked by the UserPromptSubmit hook: no secrets in prompts',
      },
    });
    expect(model.requests).toHaveLength(0);
    await runtime.shutdown();
  });
});
