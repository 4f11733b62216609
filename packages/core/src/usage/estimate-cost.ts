import type { Usage } from '../model/types.js';
import type { FullPrice } from './prices.js';

/**
 * The estimated cost of `usage` at `price`, in US dollars. `usage.input` counts every input token,
 * cache reads and writes included (decision 2026-11-22), so the uncached part is what is left
 * after them; writes are priced by lifetime (`cacheWrite1h` at the 1-hour price, the rest at the
 * 5-minute one).
 */
export function estimateCost(usage: Usage, price: FullPrice): number {
  const cacheRead = usage.cacheRead ?? 0;
  const cacheWrite = usage.cacheWrite ?? 0;
  const hour = Math.min(usage.cacheWrite1h ?? 0, cacheWrite);
  const uncached = Math.max(0, usage.input - cacheRead - cacheWrite);
  return (
    (uncached * price.input +
      usage.output * price.output +
      cacheRead * price.cacheRead +
      (cacheWrite - hour) * price.cacheWrite +
      hour * price.cacheWrite1h) /
    1_000_000
  );
}
