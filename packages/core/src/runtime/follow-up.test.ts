import { describe, expect, it } from 'vitest';
import { TroupeError } from '../errors.js';
import type { ModelRequest } from '../model/types.js';
import { createMemoryStore } from '../store/memory-store.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
import { fixtureRuntime } from './test-fixtures.js';

/** The explore agent answers with how many user messages it has seen. */
const countingModel = (request: ModelRequest) => {
  if (request.system.includes('main agent')) return textReply('main');
  const users = request.messages.filter((message) => message.role === 'user').length;
  return textReply(`answer ${users}: ${JSON.stringify(request.messages.at(-1)!.content)}`);
};

describe('runtime.followUp', () => {
  it('continues a finished task by id as a linked task, after a restart', async () => {
    const store = createMemoryStore();
    const first = fixtureRuntime(countingModel, { store });
    const original = await first.runtime.spawn({
      agent: 'explore',
      prompt: 'Find the auth code',
      sessionKey: 's',
    }).result;
    await first.runtime.shutdown();

    const second = fixtureRuntime(countingModel, { store });
    const handle = await second.runtime.followUp(original.taskId, 'Now list its tests');
    const result = await handle.result;
    const request = second.model.requests[0]!;
    expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(request.messages[0]!.content).toBe('Find the auth code');
    expect(request.messages[2]!.content).toBe('Now list its tests');
    expect(result.output).toBe('answer 2: "Now list its tests"');
    const stored = await store.getTask(handle.id);
    expect(stored?.spec).toMatchObject({ agent: 'explore', sessionKey: 's', followUpOf: original.taskId });
  });

  it('finds the task by agent name when one conversation of that agent is in the session', async () => {
    const { runtime, model } = fixtureRuntime(countingModel);
    await runtime.spawn({ agent: 'explore', prompt: 'one', sessionKey: 's' }).result;
    const next = await runtime.followUp('explore', 'two', { sessionKey: 's' });
    await next.result;
    // The follow-up is now the head of that conversation: the name finds it, not the original.
    const third = await runtime.followUp('Explore', 'three', { sessionKey: 's' });
    expect((await third.result).output).toBe('answer 3: "three"');
    expect(model.requests.at(-1)!.messages.filter((message) => message.role === 'user').length).toBe(3);
  });

  it('refuses an ambiguous name, a running task, an unknown one, naming what to do', async () => {
    const { runtime } = fixtureRuntime((request, { signal }) =>
      request.messages[0]!.content === 'hang'
        ? new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('x'))))
        : textReply('ok'),
    );
    const a = await runtime.spawn({ agent: 'explore', prompt: 'a' }).result;
    await runtime.spawn({ agent: 'explore', prompt: 'b' }).result;
    const error = await runtime.followUp('explore', 'more').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(TroupeError);
    expect((error as TroupeError).code).toBe('TASK_AMBIGUOUS');
    expect((error as Error).message).toContain(a.taskId);
    const running = runtime.spawn({ agent: 'writer', prompt: 'hang' });
    await expect(runtime.followUp(running.id, 'more')).rejects.toMatchObject({ code: 'TASK_RUNNING' });
    await expect(runtime.followUp('nope', 'more')).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
    await expect(runtime.followUp(a.taskId, 'more', { sessionKey: 'other' })).rejects.toMatchObject({
      code: 'TASK_NOT_FOUND',
    });
    runtime.cancel(running.id);
  });

  it('the main agent continues a finished sub-agent with send_message, naming it by its agent', async () => {
    const { runtime, model } = fixtureRuntime((request) => {
      if (!request.system.includes('main agent')) return countingModel(request);
      const turn = request.messages.filter((message) => message.role === 'assistant').length;
      if (turn === 0)
        return toolReply(
          'task',
          { description: 'auth', prompt: 'Find auth', subagent_type: 'explore' },
          { id: 't' },
        );
      if (turn === 1)
        return toolReply('send_message', { to: 'explore', message: 'And its tests?' }, { id: 'm' });
      return textReply('all done');
    });
    const session = runtime.createSession({ sessionKey: 'chat' });
    await session.send('look into auth');
    const subRequests = model.requests.filter((request) => !request.system.includes('main agent'));
    expect(subRequests).toHaveLength(2);
    expect(subRequests[1]!.messages.map((message) => message.content)).toEqual([
      'Find auth',
      [{ type: 'text', text: 'answer 1: "Find auth"' }],
      'And its tests?',
    ]);
    const mainLast = model.requests.at(-1)!.messages.at(-1)!;
    expect(JSON.stringify(mainLast.content)).toContain('answer 2: \\"And its tests?\\"');
  });
});
