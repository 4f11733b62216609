import { describe, expect, it } from 'vitest';
import type { ContentBlock, Message, ModelRequest } from '../model/types.js';
import { isGraceRequest as isGrace } from '../testing/grace-request.js';
import { toolReply } from '../testing/scripted-model.js';
import { fixtureRuntime, hang, loopPastMaxTurns, PAST_MAX_TURNS, settle } from './test-fixtures.js';

// The grace turn after MAX_TURNS or TIMEOUT must not move the cached prefix (tools → system →
// messages): it sends what the turn before sent and only adds to the end of the conversation.

/** The conversation as the API sees it: one (role, block) per content block, strings as text blocks. */
function blocksOf(messages: readonly Message[]): string[] {
  return messages.flatMap((message) => {
    const content: ContentBlock[] =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    return content.map((block) => JSON.stringify({ role: message.role, block }));
  });
}

function expectSamePrefix(previous: ModelRequest, grace: ModelRequest): void {
  expect(JSON.stringify(grace.tools)).toBe(JSON.stringify(previous.tools));
  expect(grace.tools.length).toBeGreaterThan(0);
  expect(JSON.stringify(grace.system)).toBe(JSON.stringify(previous.system));
  const before = blocksOf(previous.messages);
  expect(blocksOf(grace.messages).slice(0, before.length)).toEqual(before);
}

describe('the grace turn keeps the cached prefix', () => {
  it('MAX_TURNS: same tools and system, the conversation only grows; a tool call on the grace turn is not run', async () => {
    const { model, calls, result } = loopPastMaxTurns(
      toolReply('echo', { text: 'one more' }, { text: 'best effort: half done' }),
    );
    expect(await result).toMatchObject(PAST_MAX_TURNS);
    expect(calls.map((call) => call.input)).toEqual([{ text: 't1' }, { text: 't3' }, { text: 't5' }]);
    expect(model.requests).toHaveLength(4);
    const previous = model.requests[2]!;
    const grace = model.requests[3]!;
    expect(isGrace(grace)).toBe(true);
    expectSamePrefix(previous, grace);
    // Byte for byte: the grace request's messages start with the previous request's messages.
    expect(JSON.stringify(grace.messages.slice(0, previous.messages.length))).toBe(
      JSON.stringify(previous.messages),
    );
    expect(JSON.stringify(grace.messages.at(-1))).toContain('Do not call any more tools');
  });

  it('TIMEOUT: same tools and system, the conversation only grows; a tool call on the grace turn is not run', async () => {
    const { runtime, model, calls, clock } = fixtureRuntime((request, { signal, call }) => {
      if (isGrace(request))
        return toolReply('echo', { text: 'late' }, { text: 'out of time, partial answer' });
      return call === 0 ? toolReply('echo', { text: 'first' }) : hang(signal);
    });
    const handle = runtime.spawn({ agent: 'explore', prompt: 'Slow', limits: { timeoutMs: 10_000 } });
    await settle();
    expect(model.requests).toHaveLength(2);
    clock.advance(10_000);
    const result = await handle.result;
    expect(result).toMatchObject({
      status: 'failed',
      terminateReason: 'TIMEOUT',
      output: 'out of time, partial answer',
    });
    expect(calls.map((call) => call.input)).toEqual([{ text: 'first' }]);
    expect(model.requests).toHaveLength(3);
    const grace = model.requests[2]!;
    expect(isGrace(grace)).toBe(true);
    expectSamePrefix(model.requests[1]!, grace);
  });

  it('a session: a tool call on the grace turn of the main agent is answered, so the next message sends a valid conversation', async () => {
    const { runtime, model } = fixtureRuntime(
      (request) =>
        isGrace(request)
          ? toolReply('echo', { text: 'one more' }, { text: 'partial answer' })
          : toolReply('echo', { text: 'again' }),
      { limits: { mainMaxTurns: 1 } },
    );
    const session = runtime.createSession();
    const first = await session.send('go');
    expect(first).toMatchObject({ text: 'partial answer' });
    expect(isGrace(model.requests[1]!)).toBe(true);
    const graceTools = model.requests[1]!.tools;
    expect(graceTools).toEqual(model.requests[0]!.tools);
    await session.send('and now?');
    const next = model.requests[2]!;
    // Every tool call in the conversation is followed by its result.
    next.messages.forEach((message, index) => {
      if (message.role !== 'assistant' || typeof message.content === 'string') return;
      const following = next.messages[index + 1];
      const answered = new Set(
        typeof following?.content === 'string'
          ? []
          : (following?.content ?? []).flatMap((block) =>
              block.type === 'tool_result' ? [block.tool_use_id] : [],
            ),
      );
      for (const block of message.content)
        if (block.type === 'tool_use')
          expect(answered.has(block.id), `call ${block.id} at message ${index}`).toBe(true);
    });
    // The answer says why the call was not run: the limit, not a cancellation.
    const notRun = next.messages
      .flatMap((message) => (typeof message.content === 'string' ? [] : message.content))
      .filter((block) => block.type === 'tool_result' && block.is_error);
    expect(notRun).toEqual([
      expect.objectContaining({
        content: expect.stringMatching(/^Not run: the run reached its limit \(MAX_TURNS\)/),
      }),
    ]);
  });
});
