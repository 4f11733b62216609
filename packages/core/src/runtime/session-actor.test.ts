import { describe, expect, it } from 'vitest';
import type { AnyActorRef, InspectionEvent } from 'xstate';
import type { SessionContext } from '../machines/session-machine.js';
import { textReply } from '../testing/scripted-model.js';
import { fixtureRuntime, settle } from './test-fixtures.js';

describe("a session's actor", () => {
  it('holds the conversation and the messages waiting for a run; the session object reads them from it', async () => {
    const contexts: SessionContext[] = [];
    const inspect = (event: InspectionEvent) => {
      if (event.type === '@xstate.snapshot' && (event.actorRef as AnyActorRef).id.startsWith('session:'))
        contexts.push((event.snapshot as unknown as { context: SessionContext }).context);
    };
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { runtime } = fixtureRuntime(
      async (request) => {
        if (request.messages.length === 1) await held;
        return textReply(`answer to ${request.messages.length} messages`);
      },
      { inspect },
    );
    const session = runtime.createSession({ sessionKey: 'k' });
    const first = session.send('one');
    const second = session.send('two');
    await settle();
    // The second message waits in the actor's queue, planned as its own run.
    const waiting = contexts.at(-1)!;
    expect(waiting.run).toBe('k#1');
    expect(waiting.queue.map((run) => [run.taskId, run.messages])).toEqual([
      ['k#2', [{ role: 'user', content: 'two' }]],
    ]);
    expect(session.isBusy).toBe(true);
    release();
    expect((await first).text).toBe('answer to 1 messages');
    expect((await second).text).toBe('answer to 3 messages');
    const last = contexts.at(-1)!;
    expect(last.queue).toEqual([]);
    expect(last.run).toBeUndefined();
    expect(last.conversation.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(session.messages).toBe(last.conversation);
    expect(session.isBusy).toBe(false);
    await runtime.shutdown();
  });

  it("owns its main-agent run: the runtime finds the run through the session's actor while it runs, and not after", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { runtime } = fixtureRuntime(async () => {
      await held;
      return textReply('done');
    });
    const session = runtime.createSession({ sessionKey: 'owned' });
    const first = session.send('one');
    const second = session.send('two');
    await settle();
    expect(runtime.runOf('owned#1')?.spec.taskId).toBe('owned#1');
    // The second message's run is planned but not started: it waits in the actor's queue.
    expect(runtime.runOf('owned#2')).toBeUndefined();
    release();
    await first;
    await second;
    expect(runtime.runOf('owned#1')).toBeUndefined();
    expect(runtime.runOf('owned#2')).toBeUndefined();
    await runtime.shutdown();
  });

  it('rejects a message still waiting when the session closes, naming the session', async () => {
    const { runtime } = fixtureRuntime(() => new Promise(() => {}));
    const session = runtime.createSession();
    void session.send('one').catch(() => {});
    const waiting = session.send('two');
    session.close();
    await expect(waiting).rejects.toThrow(`Session ${session.actorId} is closed.`);
    await expect(session.send('three')).rejects.toMatchObject({ code: 'RUNTIME_STOPPED' });
    await runtime.shutdown();
  });
});
