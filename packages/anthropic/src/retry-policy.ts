import { abortError } from '@troupe/core/internal';

/** Backoff settings, in milliseconds. */
export interface BackoffOptions {
  initialRetryDelayMs: number;
  maxRetryDelayMs: number;
}

/**
 * The wait before retry number `retry` (1 for the first): exponential from `initialRetryDelayMs`,
 * capped at `maxRetryDelayMs`, minus up to 25% jitter. `random` returns a number in [0, 1).
 */
export function backoffDelay(retry: number, options: BackoffOptions, random: () => number): number {
  const base = Math.min(options.initialRetryDelayMs * 2 ** Math.max(0, retry - 1), options.maxRetryDelayMs);
  return Math.round(base * (1 - random() * 0.25));
}

/**
 * The wait the server asked for, in ms: `retry-after-ms`, else `retry-after` in seconds or as an
 * HTTP date (relative to `now`). Undefined when absent, unparseable or not positive.
 */
export function retryAfterMs(headers: Headers | null | undefined, now: () => number): number | undefined {
  if (!headers) return undefined;
  const millis = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(millis) && millis > 0) return millis;
  const header = headers.get('retry-after');
  if (!header) return undefined;
  const seconds = Number(header.trim());
  if (header.trim() !== '' && Number.isFinite(seconds)) return seconds > 0 ? seconds * 1000 : undefined;
  const date = Date.parse(header);
  if (Number.isNaN(date)) return undefined;
  const wait = date - now();
  return wait > 0 ? wait : undefined;
}

/** Waits `ms` on the real clock; rejects with an `AbortError` as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(abortError(signal.reason));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal.reason));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
