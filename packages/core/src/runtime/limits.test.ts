import { describe, expect, it } from 'vitest';
import { ModelError } from '../errors.js';
import { isGraceRequest } from '../testing/grace-request.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
import { fixtureRuntime, hang, loopPastMaxTurns, PAST_MAX_TURNS, settle } from './test-fixtures.js';

describe('limits and terminate reasons', () => {
  it('GOAL: a final answer completes the task', async () => {
    const { runtime } = fixtureRuntime([toolReply('echo', { text: 'a' }), textReply('found it')]);
    const result = await runtime.spawn({ agent: 'explore', prompt: 'Find it' }).result;
    expect(result).toMatchObject({
      status: 'completed',
      terminateReason: 'GOAL',
      output: 'found it',
      turns: 2,
      toolCalls: 1,
    });
    expect(result.usage).toEqual({ input: 20, output: 10, total: 30 });
  });

  it('MAX_TURNS: after the last turn the agent gets one grace turn, told not to call tools', async () => {
    const { model, result: ending } = loopPastMaxTurns(textReply('best effort: half done'));
    const result = await ending;
    expect(result).toMatchObject(PAST_MAX_TURNS);
    const grace = model.requests.at(-1)!;
    expect(grace.tools).toEqual(model.requests.at(-2)!.tools);
    const last = grace.messages.at(-1)!;
    expect(JSON.stringify(last)).toContain('turn limit');
    expect(result.error?.code).toBe('LIMIT_EXCEEDED');
  });

  it('TOKEN_LIMIT: a task over its token budget fails at the next turn boundary', async () => {
    const { runtime, model } = fixtureRuntime(() =>
      toolReply('echo', { text: 'x' }, { usage: { input: 400, output: 200 } }),
    );
    const result = await runtime.spawn({ agent: 'explore', prompt: 'Spend', limits: { tokenBudget: 1000 } })
      .result;
    expect(result).toMatchObject({ status: 'failed', terminateReason: 'TOKEN_LIMIT', turns: 2 });
    expect(result.usage.total).toBe(1200);
    expect(model.requests).toHaveLength(2);
    expect(result.error?.message).toMatch(/1200 of 1000/);
  });

  it('TIMEOUT: the deadline aborts the model call, then a grace turn answers', async () => {
    const signals: AbortSignal[] = [];
    const { runtime, clock } = fixtureRuntime((request, { signal }) => {
      if (isGraceRequest(request)) return textReply('out of time, partial answer');
      signals.push(signal);
      return hang(signal);
    });
    const handle = runtime.spawn({ agent: 'explore', prompt: 'Slow', limits: { timeoutMs: 10_000 } });
    await settle();
    clock.advance(9_999);
    await settle();
    expect(signals[0]?.aborted).toBe(false);
    clock.advance(1);
    const result = await handle.result;
    expect(signals[0]?.aborted).toBe(true);
    expect(result).toMatchObject({
      status: 'failed',
      terminateReason: 'TIMEOUT',
      output: 'out of time, partial answer',
    });
  });

  it('TIMEOUT: a grace turn that does not answer in time ends the task without waiting longer', async () => {
    const { runtime, clock } = fixtureRuntime((_request, { signal }) => hang(signal), { graceMs: 1_000 });
    const handle = runtime.spawn({ agent: 'explore', prompt: 'Slow', limits: { timeoutMs: 5_000 } });
    await settle();
    clock.advance(5_000);
    await settle();
    clock.advance(1_000);
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'failed', terminateReason: 'TIMEOUT' });
    expect(result.error?.message).toMatch(/did not answer in time/);
  });

  it('TIMEOUT: time spent awaiting approval does not count', async () => {
    let approvals = 0;
    const { runtime, clock } = fixtureRuntime(
      (request, { call }) =>
        call === 0
          ? toolReply('save', { note: 'n' })
          : isGraceRequest(request)
            ? textReply('grace')
            : textReply('saved'),
      { approval: 'ask' },
    );
    runtime.on('approval.requested', () => approvals++);
    const handle = runtime.spawn({ agent: 'writer', prompt: 'Save', limits: { timeoutMs: 10_000 } });
    await settle();
    expect(approvals).toBe(1);
    clock.advance(60_000);
    await settle();
    expect(runtime.get(handle.id)?.status).toBe('awaitingApproval');
    runtime.approve(runtime.pendingApprovals()[0]!.id);
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'completed', terminateReason: 'GOAL', output: 'saved' });
  });

  it('ERROR: a model failure fails the task with the error as data', async () => {
    const { runtime } = fixtureRuntime(() => {
      throw new ModelError('MODEL_OVERLOADED', 'The API is overloaded (529).', { status: 529 });
    });
    const result = await runtime.spawn({ agent: 'explore', prompt: 'x' }).result;
    expect(result).toMatchObject({ status: 'failed', terminateReason: 'ERROR' });
    expect(result.error).toMatchObject({ code: 'MODEL_OVERLOADED', message: 'The API is overloaded (529).' });
  });

  it('ABORTED: cancelling a running task resolves its result as cancelled', async () => {
    const { runtime } = fixtureRuntime((_request, { signal }) => hang(signal));
    const handle = runtime.spawn({ agent: 'explore', prompt: 'x' });
    await settle();
    expect(runtime.cancel(handle.id)).toBe(true);
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'cancelled', terminateReason: 'ABORTED' });
    expect(runtime.cancel(handle.id)).toBe(false);
  });

  it('per-agent limits from the definition apply, and call-site limits override them', async () => {
    const { runtime } = fixtureRuntime(
      (request) => (isGraceRequest(request) ? textReply('done') : toolReply('echo', { text: 'x' })),
      { agents: [{ name: 'short', description: 'x', systemPrompt: 'x', tools: ['echo'], maxTurns: 2 }] },
    );
    expect((await runtime.spawn({ agent: 'short', prompt: 'x' }).result).turns).toBe(3);
    expect((await runtime.spawn({ agent: 'short', prompt: 'x', limits: { maxTurns: 4 } }).result).turns).toBe(
      5,
    );
  });
});
