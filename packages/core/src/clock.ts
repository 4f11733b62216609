/** Time as the runtime sees it. Inject one to make tests independent of real time. */
export interface Clock {
  /** The time now, in ms since the epoch (as `Date.now()`). */
  now(): number;
  /** Calls `callback` once after `ms` milliseconds; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): unknown;
  /** Cancels a timer `setTimeout` returned (a handle of a timer that already ran is ignored). */
  clearTimeout(handle: unknown): void;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
};
