/** Run time in words: `0 ms`, `850 ms`, `3.2 s`, `2 min 5 s`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A time relative to the run's start: `+1.234 s` (a time before it, e.g. a replay's unstamped first records, is `+0.000 s`). */
export function sinceStart(at: number, start: number): string {
  return `+${(Math.max(0, at - start) / 1000).toFixed(3)} s`;
}

/** An absolute time, for a tooltip: ISO, to the millisecond. */
export function absolute(at: number): string {
  return new Date(at).toISOString().replace('T', ' ').replace('Z', ' UTC');
}

/** A token count: `1,234`. */
export function tokens(count: number): string {
  return count.toLocaleString('en-US');
}

/** An estimated cost in US dollars: `$0.0123`. */
export function dollars(cost: number): string {
  return `$${cost < 0.01 ? cost.toFixed(4) : cost.toFixed(2)}`;
}
