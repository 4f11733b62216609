import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../model/types.js';
import { textReply } from '../testing/scripted-model.js';
import { FORK_SEPARATOR } from './fork-context.js';
import { fixtureRuntime, settle } from './test-fixtures.js';

describe('two sessions with the same session key', () => {
  it('keep their runs apart: a forked sub-agent gets its own session conversation, never the other one', async () => {
    const requests: ModelRequest[] = [];
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const { runtime } = fixtureRuntime(
      async (request) => {
        const text = JSON.stringify(request.messages);
        // A forked child sends the main agent's system prompt too; its instructions follow the fork separator.
        if (request.system.includes('main agent') && !text.includes(FORK_SEPARATOR)) {
          // The first session's run waits while the second one runs and ends.
          if (text.includes('secret alpha') && request.messages.length === 1) await firstHeld;
          return request.messages.length === 1
            ? {
                content: [
                  {
                    type: 'tool_use',
                    id: 'fork1',
                    name: 'task',
                    input: {
                      description: 'd',
                      prompt: `forked from ${text.includes('secret alpha') ? 'alpha' : 'beta'}`,
                      subagent_type: 'forker',
                    },
                  },
                ],
              }
            : textReply(text.includes('secret alpha') ? 'alpha done' : 'beta done');
        }
        requests.push(request);
        return textReply('child done');
      },
      {
        agents: [{ name: 'forker', description: 'x', systemPrompt: 'x', tools: ['echo'], forkContext: true }],
      },
    );
    const first = runtime.createSession({ sessionKey: 'shared' });
    const second = runtime.createSession({ sessionKey: 'shared' });
    const firstReply = first.send('secret alpha');
    await settle();
    expect((await second.send('question beta')).text).toBe('beta done');
    releaseFirst();
    expect((await firstReply).text).toBe('alpha done');

    // Each forked sub-agent sees its own session's conversation (the one it was forked from).
    expect(requests).toHaveLength(2);
    for (const request of requests) {
      const seen = JSON.stringify(request.messages);
      const [own, other] = seen.includes('forked from alpha')
        ? ['secret alpha', 'question beta']
        : ['question beta', 'secret alpha'];
      expect(seen).toContain(own);
      expect(seen).not.toContain(other);
    }
    await runtime.shutdown();
  });
});
