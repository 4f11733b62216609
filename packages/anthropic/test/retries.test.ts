import { ModelError } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import type { FakeStep } from '../../../test/fake-anthropic/index.js';
import type { RetryEvent } from '../src/index.js';
import { harness, rejectionOf, request } from './helpers.js';

const ok: FakeStep = { content: [{ type: 'text', text: 'recovered' }] };
const signal = () => AbortSignal.timeout(10_000);

describe('retries', () => {
  it('retries a 429 after the retry-after seconds the API asked for', async () => {
    const { server, model, delays } = await harness();
    server.enqueue({ fault: 'rate_limited', retryAfter: 3 }, ok);
    const response = await model.generate(request(), signal());
    expect(response.content).toEqual([{ type: 'text', text: 'recovered' }]);
    expect(delays).toEqual([3000]);
    expect(server.requests.map((recorded) => recorded.action)).toEqual(['rate_limited', 'reply']);
  });

  it('prefers retry-after-ms over retry-after', async () => {
    const { server, model, delays } = await harness();
    server.enqueue({ fault: 'rate_limited', retryAfter: 9, retryAfterMs: 250 }, ok);
    await model.generate(request(), signal());
    expect(delays).toEqual([250]);
  });

  it('gives up on a 429 after maxRetries with MODEL_RATE_LIMITED', async () => {
    const { server, model, delays } = await harness({ maxRetries: 2 });
    server.setHandler(() => ({ fault: 'rate_limited', retryAfter: 1 }));
    const error = await rejectionOf(model.generate(request(), signal()));
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ code: 'MODEL_RATE_LIMITED', status: 429, isRetryable: true });
    expect(error.message).toMatch(/rate limit reached \(HTTP 429\).*gave up after 3 attempts/);
    expect(error.message).toMatch(/maxConcurrent/);
    expect(server.requests).toHaveLength(3);
    expect(delays).toEqual([1000, 1000]);
  });

  it('backs off exponentially on 529 overloaded and ends with MODEL_OVERLOADED', async () => {
    const { server, model, delays } = await harness();
    server.setHandler(() => ({ fault: 'overloaded' }));
    const error = await rejectionOf(model.generate(request(), signal()));
    expect(error).toMatchObject({ code: 'MODEL_OVERLOADED', status: 529, isRetryable: true });
    expect(error.message).toContain('Overloaded');
    expect(server.requests).toHaveLength(5); // the first try and the default 4 retries
    expect(delays).toEqual([500, 1000, 2000, 4000]);
  });

  it('applies up to 25% jitter and caps the backoff', async () => {
    const { server, model, delays } = await harness({
      maxRetries: 6,
      maxRetryDelayMs: 3000,
      random: () => 0.5,
    });
    server.setHandler(() => ({ fault: 'overloaded' }));
    await rejectionOf(model.generate(request(), signal()));
    expect(delays).toEqual([438, 875, 1750, 2625, 2625, 2625]);
  });

  it('retries other 5xx and ends with MODEL_ERROR and the API message', async () => {
    const { server, model } = await harness({ maxRetries: 1 });
    server.enqueue({ fault: 'server_error', status: 503, message: 'upstream unavailable' });
    server.enqueue({ fault: 'server_error', message: 'boom' });
    const error = await rejectionOf(model.generate(request(), signal()));
    expect(error).toMatchObject({ code: 'MODEL_ERROR', status: 500, isRetryable: true });
    expect(error.message).toContain('boom');
    expect(error.message).toMatch(/\[request id req_fake_0001\]/);
    expect(error.details).toMatchObject({ requestId: 'req_fake_0001', attempts: 2, type: 'api_error' });
  });

  it('recovers from a connection dropped mid-stream', async () => {
    const { server, model, delays } = await harness();
    server.enqueue({ fault: 'drop', afterEvents: 4 }, ok);
    const response = await model.generate(request(), signal());
    expect(response.content).toEqual([{ type: 'text', text: 'recovered' }]);
    expect(delays).toEqual([500]);
    expect(await server.requests[0]?.finished).toBe('dropped');
  });

  it('ends with MODEL_CONNECTION when every try is dropped', async () => {
    const { server, model } = await harness({ maxRetries: 2 });
    server.enqueue({ fault: 'drop' }, { fault: 'drop', afterEvents: 2 }, { fault: 'drop', afterEvents: 5 });
    const error = await rejectionOf(model.generate(request(), signal()));
    expect(error).toMatchObject({ code: 'MODEL_CONNECTION', status: undefined, isRetryable: true });
    expect(error.message).toContain('connection closed mid-response');
    expect(error.message).toContain(server.url);
    expect(server.requests).toHaveLength(3);
  });

  it('retries an overloaded error event mid-stream', async () => {
    const { server, model, delays } = await harness({ maxRetries: 1 });
    server.enqueue({ fault: 'stream_error', afterEvents: 3 }, { fault: 'stream_error', afterEvents: 1 });
    const error = await rejectionOf(model.generate(request(), signal()));
    expect(error).toMatchObject({ code: 'MODEL_OVERLOADED', isRetryable: true });
    expect(error.details.type).toBe('overloaded_error');
    expect(delays).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it.each([
    [400, 'invalid_request_error', 'MODEL_INVALID_REQUEST', /field/],
    [401, 'authentication_error', 'MODEL_AUTH', /ANTHROPIC_API_KEY/],
    [403, 'permission_error', 'MODEL_AUTH', /may use model "claude-test-1"/],
    [404, 'not_found_error', 'MODEL_INVALID_REQUEST', /Check the model id "claude-test-1"/],
  ])('does not retry HTTP %i (%s) and ends with %s', async (status, errorType, code, advice) => {
    const { server, model, delays } = await harness();
    server.enqueue({ fault: 'http_error', status, errorType, message: `scripted ${errorType}` }, ok);
    const error = await rejectionOf(model.generate(request(), signal()));
    expect(error).toMatchObject({ code, status, isRetryable: false });
    expect(error.message).toContain(`scripted ${errorType}`);
    expect(error.message).toMatch(advice);
    expect(error.message).toContain('gave up after 1 attempt.');
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
    expect(server.pending).toBe(1);
  });

  it('stops at once when retry-after is longer than maxRetryAfterMs', async () => {
    const { server, model, delays } = await harness({ maxRetryAfterMs: 10_000 });
    server.enqueue({ fault: 'rate_limited', retryAfter: 120 }, ok);
    const error = await rejectionOf(model.generate(request(), signal()));
    expect(error.code).toBe('MODEL_RATE_LIMITED');
    expect(error.message).toContain('asked to wait 120 s');
    expect(delays).toEqual([]);
  });

  it('tells onRetry about each retry before waiting', async () => {
    const events: RetryEvent[] = [];
    const { server, model } = await harness({ onRetry: (event) => events.push(event) });
    server.enqueue({ fault: 'overloaded' }, { fault: 'rate_limited', retryAfter: 2 }, ok);
    await model.generate(request(), signal());
    expect(events.map(({ retry, delayMs, error }) => [retry, delayMs, error.code])).toEqual([
      [1, 500, 'MODEL_OVERLOADED'],
      [2, 2000, 'MODEL_RATE_LIMITED'],
    ]);
    expect(events[0]?.error.message).toContain('attempt 1 failed, retrying');
  });

  it('maxRetries 0 tries once', async () => {
    const { server, model } = await harness({ maxRetries: 0 });
    server.enqueue({ fault: 'overloaded' }, ok);
    const error = await rejectionOf(model.generate(request(), signal()));
    expect(error.code).toBe('MODEL_OVERLOADED');
    expect(server.requests).toHaveLength(1);
  });
});
