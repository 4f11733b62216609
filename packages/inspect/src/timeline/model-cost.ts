import { estimateCost as costAt, DEFAULT_PRICES, type PriceTable, priceOf } from '@troupe/core';

export type { ModelPrice } from '@troupe/core';

/** Token counts of one or more model calls (`input` includes cache reads and writes). */
export interface TokenCounts {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  cacheWrite1h?: number;
}

/**
 * An estimate of what `usage` cost on `model`, in US dollars, from `@troupe/core`'s price table
 * (the one `runtime.usage()` uses; list prices unless `prices` is given); undefined for a model
 * the table does not price.
 */
export function estimateCost(
  model: string | undefined,
  usage: TokenCounts,
  prices: PriceTable = DEFAULT_PRICES,
): number | undefined {
  const price = priceOf(model, prices);
  return price ? costAt(usage, price) : undefined;
}
