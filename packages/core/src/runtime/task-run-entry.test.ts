import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../model/types.js';
import { hang, textReply } from '../testing/scripted-model.js';
import { fixtureRuntime, settle } from './test-fixtures.js';

const firstPrompt = (request: ModelRequest) => JSON.stringify(request.messages[0]);

/** A model that hangs for the task prompted `hold` and answers the others with what they were told. */
const holdOne = (request: ModelRequest, { signal }: { signal: AbortSignal }) =>
  firstPrompt(request).includes('hold')
    ? hang(signal)
    : textReply(`read: ${JSON.stringify(request.messages)}`);

describe("a task's run is its entry from submit to end", () => {
  it('a queued task keeps its steering for its launch, and one cancelled in the queue ends by itself', async () => {
    const { runtime, store } = fixtureRuntime(holdOne, { limits: { maxConcurrent: 1 } });
    const held = runtime.spawn({ agent: 'explore', prompt: 'hold the slot' });
    const queued = runtime.spawn({ agent: 'explore', prompt: 'then this' });
    const dropped = runtime.spawn({ agent: 'explore', prompt: 'never runs' });
    await settle();
    expect(runtime.get(queued.id)?.status).toBe('queued');
    expect(runtime.runOf(queued.id)).toBeUndefined();
    runtime.steer(queued.id, 'Only the tests.');
    expect(runtime.cancel(dropped.id, 'not needed')).toBe(true);
    const cancelled = await dropped.result;
    expect(cancelled.status).toBe('cancelled');
    expect(runtime.get(dropped.id)?.status).toBe('cancelled');
    expect((await store.loadResult(dropped.id))?.status).toBe('cancelled');
    runtime.cancel(held.id);
    const done = await queued.result;
    expect(done.status).toBe('completed');
    expect(String(done.output)).toContain('Only the tests.');
    expect((await held.result).status).toBe('cancelled');
  });

  it('an ended task lets its actor go: the runtime no longer runs it, and its info is frozen', async () => {
    const { runtime, clock } = fixtureRuntime(holdOne);
    const { id, result } = runtime.spawn({ agent: 'explore', prompt: 'answer' });
    expect((await result).status).toBe('completed');
    await settle();
    expect(runtime.runOf(id)).toBeUndefined();
    const info = runtime.get(id)!;
    expect(info).toMatchObject({ status: 'completed', turns: 1 });
    clock.advance(60_000);
    expect(runtime.get(id)).toEqual(info);
  });
});
