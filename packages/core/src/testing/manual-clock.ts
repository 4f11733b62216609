import type { Clock } from '../clock.js';

/** A clock that only moves when told to: for tests of deadlines without real time. */
export interface ManualClock extends Clock {
  /** Moves time forward, firing due timers in order (timers they set fire too, if due). */
  advance(ms: number): void;
  /** Timers not yet fired. */
  readonly pending: number;
}

/** Creates a {@link ManualClock} starting at `start` (ms since epoch). */
export function manualClock(start = 1_700_000_000_000): ManualClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  return {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.set(id, { at: now + Math.max(0, ms), callback });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const target = now + ms;
      for (;;) {
        let due: [number, { at: number; callback: () => void }] | undefined;
        for (const entry of timers)
          if (entry[1].at <= target && (!due || entry[1].at < due[1].at)) due = entry;
        if (!due) break;
        timers.delete(due[0]);
        now = Math.max(now, due[1].at);
        due[1].callback();
      }
      now = target;
    },
    get pending() {
      return timers.size;
    },
  };
}
