import { describe, expect, it } from 'vitest';
import { ModelError } from '../errors.js';
import { textReply } from '../testing/scripted-model.js';
import { fixtureRuntime } from './test-fixtures.js';

describe('the reply of a failed main-agent run', () => {
  it('holds no text from earlier runs: neither an earlier answer nor an earlier "(No reply.)"', async () => {
    let calls = 0;
    const { runtime } = fixtureRuntime(() => {
      calls++;
      if (calls === 1) return textReply('First answer: everything is fine.');
      throw new ModelError('MODEL_INVALID_REQUEST', 'Anthropic API rejected the request (HTTP 400).');
    });
    const session = runtime.createSession();
    const replies: string[] = [];
    session.on('message', (message) => replies.push(message.text));
    expect((await session.send('hello')).text).toBe('First answer: everything is fine.');
    const second = await session.send('now something else');
    expect(second.result.status).toBe('failed');
    expect(second.text).toBe('');
    expect(second.result.output).toBe('');
    const third = await session.send('and again');
    expect(third.text).toBe('');
    expect(replies).toEqual(['First answer: everything is fine.', '', '']);
  });
});

describe('clearing a session', () => {
  it('forgets the conversation but keeps the session key; refuses while a run is in progress', async () => {
    const seen: number[] = [];
    const { runtime } = fixtureRuntime((request) => {
      seen.push(request.messages.length);
      return textReply(`answer ${seen.length}`);
    });
    const session = runtime.createSession();
    await session.send('one');
    await session.send('two');
    expect(seen).toEqual([1, 3]);
    const running = session.send('three');
    expect(session.clear()).toBe(false);
    await running;
    expect(session.messages).toHaveLength(6);
    expect(session.clear()).toBe(true);
    expect(session.messages).toHaveLength(0);
    const key = session.sessionKey;
    expect((await session.send('four')).text).toBe('answer 4');
    expect(seen).toEqual([1, 3, 5, 1]);
    expect(session.sessionKey).toBe(key);
  });
});
