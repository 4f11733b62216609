import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, retryAfterMs } from '../src/index.js';
import { sleep } from '../src/retry-policy.js';

const policy = { initialRetryDelayMs: 500, maxRetryDelayMs: 8000 };

afterEach(() => {
  vi.useRealTimers();
});

describe('backoff', () => {
  it('doubles from the initial delay up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((retry) => backoffDelay(retry, policy, () => 0))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000,
    ]);
  });

  it('takes off at most 25% as jitter', () => {
    expect(backoffDelay(3, policy, () => 0.999_999)).toBe(1500);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(1750);
  });
});

describe('retry-after', () => {
  const now = () => Date.parse('2025-01-01T00:00:00Z');
  const headers = (entries: Record<string, string>) => new Headers(entries);

  it('reads milliseconds, seconds and HTTP dates', () => {
    expect(retryAfterMs(headers({ 'retry-after-ms': '1500' }), now)).toBe(1500);
    expect(retryAfterMs(headers({ 'retry-after': '7' }), now)).toBe(7000);
    expect(retryAfterMs(headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(retryAfterMs(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }), now)).toBe(30_000);
  });

  it('ignores absent, unparseable, zero, negative and past values', () => {
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': '0' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after-ms': '-5' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }), now)).toBeUndefined();
  });
});

describe('sleep', () => {
  it('resolves after the delay', async () => {
    vi.useFakeTimers();
    let done = false;
    const waiting = sleep(1000, new AbortController().signal).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(done).toBe(true);
  });

  it('rejects with an AbortError as soon as the signal aborts', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError', code: 'ABORTED' });
    expect(vi.getTimerCount()).toBe(0);
  });
});
