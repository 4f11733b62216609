import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../events.js';
import type { ToolResultBlock } from '../model/types.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
import { fixtureRuntime, settle } from './test-fixtures.js';

const saveThenDone = (_request: unknown, { call }: { call: number }) =>
  call % 2 === 0 ? toolReply('save', { note: `n${call}` }) : textReply('done');

function resultOf(requestMessages: { role: string; content: unknown }[]): ToolResultBlock {
  return (requestMessages.at(-1)!.content as ToolResultBlock[])[0]!;
}

describe('approvals', () => {
  it('ask: the host sees the agent, tool and input, and approval runs the tool', async () => {
    const { runtime, calls } = fixtureRuntime(saveThenDone, { approval: 'ask' });
    const requests: ApprovalRequest[] = [];
    runtime.on('approval.requested', (request) => {
      requests.push(request);
      runtime.approve(request.id);
    });
    const result = await runtime.spawn({ agent: 'writer', prompt: 'Save a note', description: 'Save note' })
      .result;
    expect(result.status).toBe('completed');
    expect(requests).toEqual([
      expect.objectContaining({
        agent: 'writer',
        tool: 'save',
        access: 'write',
        input: { note: 'n0' },
        description: 'Save note',
        background: false,
      }),
    ]);
    expect(calls.map((call) => call.tool)).toEqual(['save']);
  });

  it('ask: a denial becomes an error tool result with the reason; the tool never runs', async () => {
    const { runtime, calls, model } = fixtureRuntime(saveThenDone, { approval: 'ask' });
    runtime.on('approval.requested', (request) => runtime.deny(request.id, 'not in this repo'));
    const result = await runtime.spawn({ agent: 'writer', prompt: 'x' }).result;
    expect(result.status).toBe('completed');
    expect(calls).toEqual([]);
    expect(resultOf(model.requests[1]!.messages)).toMatchObject({
      is_error: true,
      content: expect.stringContaining('not in this repo'),
    });
  });

  it('read tools never ask', async () => {
    const { runtime } = fixtureRuntime([toolReply('echo', { text: 'x' }), textReply('ok')], {
      approval: 'ask',
    });
    let asked = 0;
    runtime.on('approval.requested', () => asked++);
    await runtime.spawn({ agent: 'writer', prompt: 'x' }).result;
    expect(asked).toBe(0);
  });

  it('auto approves and deny denies without asking', async () => {
    for (const policy of ['auto', 'deny'] as const) {
      const { runtime, calls, model } = fixtureRuntime(saveThenDone, { approval: policy });
      let asked = 0;
      runtime.on('approval.requested', () => asked++);
      await runtime.spawn({ agent: 'writer', prompt: 'x' }).result;
      expect(asked).toBe(0);
      expect(calls.length).toBe(policy === 'auto' ? 1 : 0);
      if (policy === 'deny') expect(resultOf(model.requests[1]!.messages).is_error).toBe(true);
    }
  });

  it('a policy function decides, and a throwing one denies', async () => {
    const seen: string[] = [];
    const { runtime, calls } = fixtureRuntime(
      (_request, { call }) =>
        [toolReply('save', { note: 'a' }), toolReply('shell', { command: 'ls' }), textReply('done')][call]!,
      {
        approval: async (request) => {
          seen.push(request.tool);
          if (request.tool === 'shell') throw new Error('policy offline');
          return 'approve' as const;
        },
      },
    );
    await runtime.spawn({ agent: 'writer', prompt: 'x' }).result;
    expect(seen).toEqual(['save', 'shell']);
    expect(calls.map((call) => call.tool)).toEqual(['save']);
  });

  it('always-allow is remembered for the session, not beyond it', async () => {
    const { runtime, calls } = fixtureRuntime(saveThenDone, { approval: 'ask' });
    const asked: string[] = [];
    runtime.on('approval.requested', (request) => {
      asked.push(request.sessionKey);
      runtime.approve(request.id, { always: true });
    });
    await runtime.spawn({ agent: 'writer', prompt: 'x', sessionKey: 's1' }).result;
    await runtime.spawn({ agent: 'writer', prompt: 'x', sessionKey: 's1' }).result;
    await runtime.spawn({ agent: 'writer', prompt: 'x', sessionKey: 's2' }).result;
    expect(asked).toEqual(['s1', 's2']);
    expect(calls).toHaveLength(3);
  });

  it("always-allow never overrides a policy function's denial (a deny rule holds after an 'always' answer)", async () => {
    const { runtime, calls } = fixtureRuntime(saveThenDone, {
      approval: (request) =>
        (request.input as { note?: string }).note === 'n2'
          ? { decision: 'deny', reason: 'denied by rule' }
          : 'ask',
    });
    const asked: string[] = [];
    runtime.on('approval.requested', (request) => {
      asked.push(request.tool);
      runtime.approve(request.id, { always: true });
    });
    await runtime.spawn({ agent: 'writer', prompt: 'x', sessionKey: 's1' }).result;
    const second = await runtime.spawn({ agent: 'writer', prompt: 'x', sessionKey: 's1' }).result;
    expect(asked).toEqual(['save']);
    expect(calls.map((call) => call.input)).toEqual([{ note: 'n0' }]);
    expect(second.status).toBe('completed');
  });

  it('background tasks wait for the host; they are never silently denied', async () => {
    const { runtime, clock, calls } = fixtureRuntime(saveThenDone, { approval: 'ask' });
    const handle = runtime.spawn({ agent: 'writer', prompt: 'x', background: true });
    await settle();
    clock.advance(3_600_000);
    await settle();
    expect(runtime.get(handle.id)?.status).toBe('awaitingApproval');
    const [pending] = runtime.pendingApprovals();
    expect(pending).toMatchObject({ background: true, tool: 'save' });
    runtime.approve(pending!.id);
    expect((await handle.result).status).toBe('completed');
    expect(calls).toHaveLength(1);
  });

  it('an unknown or already decided approval id is a clear error', async () => {
    const { runtime } = fixtureRuntime(saveThenDone, { approval: 'ask' });
    expect(() => runtime.approve('nope')).toThrow(/No approval is waiting with id "nope"/);
    runtime.spawn({ agent: 'writer', prompt: 'x' });
    await settle();
    const [pending] = runtime.pendingApprovals();
    runtime.approve(pending!.id);
    expect(() => runtime.deny(pending!.id)).toThrow(expect.objectContaining({ code: 'APPROVAL_NOT_FOUND' }));
  });

  it('cancelling a task awaiting approval withdraws its request', async () => {
    const { runtime } = fixtureRuntime(saveThenDone, { approval: 'ask' });
    const handle = runtime.spawn({ agent: 'writer', prompt: 'x' });
    await settle();
    expect(runtime.pendingApprovals()).toHaveLength(1);
    runtime.cancel(handle.id);
    expect((await handle.result).status).toBe('cancelled');
    expect(runtime.pendingApprovals()).toHaveLength(0);
  });
});

describe('a policy that answers late', () => {
  it('after its task was cancelled, changes nothing and records nothing more', async () => {
    let answer!: (decision: 'approve') => void;
    const { runtime, store, calls } = fixtureRuntime(saveThenDone, {
      approval: () =>
        new Promise<'approve'>((resolve) => {
          answer = resolve;
        }),
    });
    const handle = runtime.spawn({ agent: 'writer', prompt: 'x' });
    await settle();
    runtime.cancel(handle.id);
    expect((await handle.result).status).toBe('cancelled');
    answer('approve');
    await settle();
    expect(calls).toEqual([]);
    const events = (store as unknown as { records: { taskId: string; event: string }[] }).records
      .filter((record) => record.taskId === handle.id)
      .map((record) => record.event);
    expect(events).toEqual(['task.queued', 'task.started', 'task.awaitingApproval', 'task.cancelled']);
  });
});
