import { describe, expect, it } from 'vitest';
import { textReply, toolReply } from '../testing/scripted-model.js';
import { fixtureRuntime, hang, settle } from './test-fixtures.js';

describe('cancellation', () => {
  it('aborts the in-flight model call', async () => {
    let signal: AbortSignal | undefined;
    const { runtime } = fixtureRuntime((_request, context) => {
      signal = context.signal;
      return hang(context.signal);
    });
    const handle = runtime.spawn({ agent: 'explore', prompt: 'x' });
    await settle();
    expect(signal?.aborted).toBe(false);
    runtime.cancel(handle.id, 'user changed their mind');
    expect(signal?.aborted).toBe(true);
    const result = await handle.result;
    expect(result).toMatchObject({
      status: 'cancelled',
      terminateReason: 'ABORTED',
      error: { message: 'user changed their mind' },
    });
  });

  it('aborts the in-flight tool', async () => {
    const { runtime, calls } = fixtureRuntime([toolReply('wait', {}), textReply('never')]);
    const handle = runtime.spawn({ agent: 'explore', prompt: 'x' });
    await settle();
    expect(calls[0]?.signal.aborted).toBe(false);
    runtime.cancel(handle.id);
    expect(calls[0]?.signal.aborted).toBe(true);
    expect((await handle.result).status).toBe('cancelled');
  });

  it('cancels a queued task before it starts; it never calls the model', async () => {
    const { runtime, model } = fixtureRuntime((_request, { signal }) => hang(signal), {
      limits: { maxConcurrent: 1 },
    });
    const first = runtime.spawn({ agent: 'explore', prompt: 'first' });
    const second = runtime.spawn({ agent: 'explore', prompt: 'second' });
    await settle();
    expect(runtime.get(second.id)?.status).toBe('queued');
    runtime.cancel(second.id);
    expect(await second.result).toMatchObject({ status: 'cancelled', turns: 0 });
    runtime.cancel(first.id);
    await first.result;
    expect(model.requests).toHaveLength(1);
  });

  it('cancelSession cancels the queued and running tasks of that session only', async () => {
    const { runtime } = fixtureRuntime((_request, { signal }) => hang(signal), {
      limits: { maxConcurrent: 2 },
    });
    const a = ['a1', 'a2', 'a3'].map((prompt) =>
      runtime.spawn({ agent: 'explore', prompt, sessionKey: 'A' }),
    );
    const b = runtime.spawn({ agent: 'explore', prompt: 'b', sessionKey: 'B' });
    await settle();
    expect(runtime.cancelSession('A')).toBe(3);
    const results = await Promise.all(a.map((handle) => handle.result));
    expect(results.map((result) => result.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    await settle();
    expect(runtime.get(b.id)?.status).toBe('running');
    expect(runtime.cancelSession('A')).toBe(0);
    runtime.cancel(b.id);
  });

  it('shutdown cancels everything and refuses new work', async () => {
    const { runtime } = fixtureRuntime((_request, { signal }) => hang(signal));
    const handle = runtime.spawn({ agent: 'explore', prompt: 'x' });
    await settle();
    await runtime.shutdown();
    expect((await handle.result).status).toBe('cancelled');
    expect(() => runtime.spawn({ agent: 'explore', prompt: 'x' })).toThrow(/shut down/);
  });
});
