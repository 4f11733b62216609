import { ModelError } from '../errors.js';

/**
 * The error a cancelled model call rejects with: a `ModelError` with code `ABORTED` whose `name`
 * is `AbortError`, so both `error.name === 'AbortError'` and `error.code === 'ABORTED'` checks work.
 */
export function abortError(reason?: unknown): ModelError {
  const error = new ModelError('ABORTED', 'The model call was aborted.', {
    isRetryable: false,
    ...(reason === undefined ? {} : { cause: reason }),
  });
  error.name = 'AbortError';
  return error;
}

/** Whether an error means "aborted" (ours, the SDK's `APIUserAbortError`, or a DOM `AbortError`). */
export function isAbortError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code } = error as { name?: unknown; code?: unknown };
  return name === 'AbortError' || name === 'APIUserAbortError' || code === 'ABORTED';
}

/** Rejects with `abortError()` as soon as `signal` aborts, whatever `promise` is doing. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError(signal.reason));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
