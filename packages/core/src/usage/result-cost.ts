import type { TaskResult } from '../persistence/types.js';
import { estimateCost } from './estimate-cost.js';
import { DEFAULT_PRICES, type PriceTable, priceOf } from './prices.js';
import { usageParts } from './usage-by-model.js';

/** The estimated cost of one task's result, and the models it used that have no price. */
export interface ResultCost {
  /** US dollars, the parts on unpriced models left out. */
  cost: number;
  /** Models that answered the task and have no price in the table. */
  unpriced: string[];
}

/**
 * The estimated cost of a task's result at `prices`: each part of its usage (`usageByModel`, or all
 * of it under `model`) priced under the model that answered it.
 */
export function resultCost(
  result: Pick<TaskResult, 'usage' | 'model' | 'usageByModel'>,
  prices: PriceTable = DEFAULT_PRICES,
): ResultCost {
  const out: ResultCost = { cost: 0, unpriced: [] };
  for (const [model, usage] of usageParts(result.usage, result.model, result.usageByModel)) {
    const price = priceOf(model, prices);
    if (price) out.cost += estimateCost(usage, price);
    else out.unpriced.push(model);
  }
  return out;
}
