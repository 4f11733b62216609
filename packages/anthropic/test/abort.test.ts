import { describe, expect, it } from 'vitest';
import { createAnthropicModel } from '../src/index.js';
import { harness, rejectionOf, request, TEST_KEY } from './helpers.js';

const never = new Promise<void>(() => {});

describe('cancellation', () => {
  it('aborts a stream mid-answer: rejects with AbortError and the server sees the connection close', async () => {
    const { server, model } = await harness({}, { chunkSize: 4 });
    // Four events reach the client (start, block start, ping, one delta), then the stream waits forever.
    server.enqueue({
      content: [{ type: 'text', text: 'This answer never finishes.' }],
      gate: never,
      pauseAfterEvents: 4,
    });
    const controller = new AbortController();
    const pending = model.generate(request(), controller.signal, {
      onDelta: () => controller.abort(new Error('user pressed Ctrl-C')),
    });
    const error = await rejectionOf(pending);
    expect(error.name).toBe('AbortError');
    expect(error.code).toBe('ABORTED');
    expect(error.isRetryable).toBe(false);
    expect(await server.requests[0]?.finished).toBe('client-closed');
    expect(server.requests).toHaveLength(1);
  });

  it('aborts while waiting for the response headers', async () => {
    const { server, model } = await harness();
    server.enqueue({ fault: 'hang' });
    const controller = new AbortController();
    const pending = model.generate(request(), controller.signal);
    await server.waitForRequests(1);
    controller.abort();
    expect((await rejectionOf(pending)).name).toBe('AbortError');
    expect(await server.requests[0]?.finished).toBe('client-closed');
  });

  it('aborts during the backoff wait with the real sleep, without retrying', async () => {
    const { server } = await harness();
    const controller = new AbortController();
    const model = createAnthropicModel({
      apiKey: TEST_KEY,
      baseURL: server.url,
      env: {},
      onRetry: () => controller.abort(),
    });
    server.enqueue(
      { fault: 'rate_limited', retryAfter: 30 },
      { content: [{ type: 'text', text: 'too late' }] },
    );
    const error = await rejectionOf(model.generate(request(), controller.signal));
    expect(error.name).toBe('AbortError');
    expect(server.requests).toHaveLength(1);
    expect(server.pending).toBe(1);
  });

  it('rejects at once when the signal is already aborted, sending nothing', async () => {
    const { server, model } = await harness();
    const error = await rejectionOf(model.generate(request(), AbortSignal.abort()));
    expect(error.name).toBe('AbortError');
    expect(server.requests).toHaveLength(0);
  });

  it('treats an abort after a dropped connection as an abort, not a retry', async () => {
    const controller = new AbortController();
    const { server, model } = await harness({
      sleep: async () => {
        controller.abort();
      },
    });
    server.enqueue({ fault: 'drop', afterEvents: 2 }, { content: [{ type: 'text', text: 'not reached' }] });
    const error = await rejectionOf(model.generate(request(), controller.signal));
    expect(error.code).toBe('ABORTED');
    expect(server.requests).toHaveLength(1);
  });
});
