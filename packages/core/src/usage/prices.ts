/**
 * What a model's tokens cost, in US dollars per million tokens. Cache prices default to the
 * documented multiples of `input`: reads 0.1×, 5-minute writes 1.25×, 1-hour writes 2×.
 */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  cacheWrite1h?: number;
}

/**
 * Prices by model: a key is a full model id or a part of one (`sonnet`, `claude-opus-4-1`); a
 * model is priced by the longest key its id contains (case-insensitive).
 */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * Anthropic's list prices (Claude 4.5 generation by family, and the older models that cost
 * differently), the default of `createRuntime({ prices })`. Costs computed from them are
 * estimates: discounts, batch pricing and taxes are not known to troupe.
 */
export const DEFAULT_PRICES: PriceTable = {
  opus: { input: 5, output: 25 },
  'claude-opus-4-0': { input: 15, output: 75 },
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-opus-4-2025': { input: 15, output: 75 },
  'claude-3-opus': { input: 15, output: 75 },
  sonnet: { input: 3, output: 15 },
  haiku: { input: 1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
  'claude-3-haiku': { input: 0.25, output: 1.25 },
};

/** Every price of a model, the cache prices filled in from `input` where the table leaves them out. */
export type FullPrice = Required<ModelPrice>;

/** The price of `model` in `table` (the longest key its id contains), or undefined when none matches. */
export function priceOf(
  model: string | undefined,
  table: PriceTable = DEFAULT_PRICES,
): FullPrice | undefined {
  if (!model) return undefined;
  const id = model.toLowerCase();
  let best: [string, ModelPrice] | undefined;
  for (const entry of Object.entries(table))
    if (id.includes(entry[0].toLowerCase()) && (!best || entry[0].length > best[0].length)) best = entry;
  if (!best) return undefined;
  const price = best[1];
  return {
    input: price.input,
    output: price.output,
    cacheRead: price.cacheRead ?? price.input * 0.1,
    cacheWrite: price.cacheWrite ?? price.input * 1.25,
    cacheWrite1h: price.cacheWrite1h ?? price.input * 2,
  };
}
