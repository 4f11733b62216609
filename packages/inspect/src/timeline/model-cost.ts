/** List prices of a model family, in US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** Anthropic's list prices by family (Claude 4.5 generation), the basis of every estimate shown. */
const PRICES: [RegExp, ModelPrice][] = [
  [/opus/i, { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }],
  [/sonnet/i, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }],
  [/haiku/i, { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }],
];

/** Token counts of one or more model calls. */
export interface TokenCounts {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/**
 * An estimate of what `usage` cost on `model`, in US dollars, at the family's list price
 * (`opus`, `sonnet`, `haiku` in the model id); undefined for a model of another family.
 */
export function estimateCost(model: string | undefined, usage: TokenCounts): number | undefined {
  const price = model ? PRICES.find(([pattern]) => pattern.test(model))?.[1] : undefined;
  if (!price) return undefined;
  return (
    (usage.input * price.input +
      usage.output * price.output +
      (usage.cacheRead ?? 0) * price.cacheRead +
      (usage.cacheWrite ?? 0) * price.cacheWrite) /
    1_000_000
  );
}
