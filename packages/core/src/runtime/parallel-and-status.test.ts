import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../model/types.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
import { fixtureRuntime, settle } from './test-fixtures.js';

describe('several calls in one reply', () => {
  it('task calls run in parallel: two sub-agents that each wait for the other both finish', async () => {
    let arrived = 0;
    let releaseAll!: () => void;
    const bothThere = new Promise<void>((resolve) => {
      releaseAll = resolve;
    });
    const { runtime } = fixtureRuntime((request: ModelRequest) => {
      if (request.system.includes('main agent')) {
        if (request.messages.length > 1) return textReply('both done');
        return {
          content: ['left', 'right'].map((side) => ({
            type: 'tool_use' as const,
            id: side,
            name: 'task',
            input: { description: side, prompt: `look ${side}`, subagent_type: 'explore' },
          })),
        };
      }
      // Each sub-agent answers only once both have started: run one after the other, they deadlock.
      arrived++;
      if (arrived === 2) releaseAll();
      return bothThere.then(() => textReply(`${request.messages[0]!.content} done`));
    });
    const reply = await runtime.createSession().send('look both ways');
    expect(reply.text).toBe('both done');
    expect(runtime.list().map((task) => task.status)).toEqual(['completed', 'completed']);
  });

  it('results still reach the model in call order', async () => {
    const { runtime, model } = fixtureRuntime([
      {
        content: [
          { type: 'tool_use', id: 'a', name: 'echo', input: { text: 'first' } },
          { type: 'tool_use', id: 'b', name: 'echo', input: { text: 'second' } },
        ],
      },
      textReply('ok'),
    ]);
    await runtime.spawn({ agent: 'explore', prompt: 'x' }).result;
    const last = model.requests[1]!.messages.at(-1)!.content as { tool_use_id: string; content: string }[];
    expect(last.map((block) => [block.tool_use_id, block.content])).toEqual([
      ['a', 'echo: first'],
      ['b', 'echo: second'],
    ]);
  });
});

describe('status and approval events', () => {
  it('a task is running again once its approval is answered', async () => {
    const { runtime } = fixtureRuntime(
      (_request, { call, signal }) =>
        call === 0
          ? toolReply('save', { note: 'n' })
          : new Promise((_resolve, reject) => signal.addEventListener('abort', reject)),
      { approval: 'ask' },
    );
    const handle = runtime.spawn({ agent: 'writer', prompt: 'x' });
    await settle();
    expect(runtime.get(handle.id)?.status).toBe('awaitingApproval');
    expect(runtime.list({ status: 'awaitingApproval' })).toHaveLength(1);
    runtime.approve(runtime.pendingApprovals()[0]!.id);
    await settle();
    expect(runtime.get(handle.id)?.status).toBe('running');
    const events = (runtime.store as unknown as { records: { event: string }[] }).records.map(
      (record) => record.event,
    );
    expect(events).toEqual(['task.queued', 'task.started', 'task.awaitingApproval', 'task.resumed']);
    runtime.cancel(handle.id);
  });

  it('policy decisions made without asking are reported as approval.resolved', async () => {
    for (const policy of ['auto', 'deny'] as const) {
      const { runtime } = fixtureRuntime([toolReply('save', { note: 'n' }), textReply('ok')], {
        approval: policy,
      });
      const resolved: { decision: string; by: string; tool: string }[] = [];
      runtime.on('approval.resolved', (event) => resolved.push(event));
      await runtime.spawn({ agent: 'writer', prompt: 'x' }).result;
      expect(resolved).toEqual([
        expect.objectContaining({
          tool: 'save',
          decision: policy === 'auto' ? 'approve' : 'deny',
          by: 'policy',
        }),
      ]);
    }
  });

  it("a task's get() and its events report the same counters, while it runs and once it ended", async () => {
    const replies = [toolReply('echo', { text: 'a' }), textReply('done')];
    // Each model call takes 5 ms, so the elapsed time counts too.
    const { runtime, clock } = fixtureRuntime(() => {
      clock.advance(5);
      return replies.shift()!;
    });
    const seen: { turns: number; toolCalls: number; tokens: number; elapsedMs: number }[] = [];
    const counters = (info: { turns: number; toolCalls: number; tokens: number; elapsedMs: number }) => ({
      turns: info.turns,
      toolCalls: info.toolCalls,
      tokens: info.tokens,
      elapsedMs: info.elapsedMs,
    });
    const handle = runtime.spawn({ agent: 'explore', prompt: 'x' });
    runtime.on('task.progress', (event) => {
      // Read in the same instant as the event's fields: both come from the task's run.
      seen.push(counters(event), counters(runtime.get(handle.id)!));
    });
    let ended: ReturnType<typeof counters> | undefined;
    runtime.on('task.completed', (event) => {
      ended = counters(event);
    });
    await handle.result;
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (let index = 0; index < seen.length; index += 2) expect(seen[index + 1]).toEqual(seen[index]);
    expect(seen[0]).toMatchObject({ turns: 1, toolCalls: 1, elapsedMs: 5 });
    expect(counters(runtime.get(handle.id)!)).toEqual(ended);
  });

  it('a session is no longer busy once send resolves', async () => {
    const { runtime } = fixtureRuntime(() => textReply('hi'));
    const session = runtime.createSession();
    const pending = session.send('hello');
    expect(session.isBusy).toBe(true);
    await pending;
    expect(session.isBusy).toBe(false);
  });
});

describe('shutdown', () => {
  it('ends a session run that is still going', async () => {
    const { runtime } = fixtureRuntime(
      (_request, { signal }) => new Promise((_resolve, reject) => signal.addEventListener('abort', reject)),
    );
    const session = runtime.createSession();
    const reply = session.send('hello');
    await settle();
    await runtime.shutdown();
    expect((await reply).result.status).toBe('cancelled');
    expect(() => runtime.createSession()).toThrow(/shut down/);
  });
});
