export { estimateCost } from './estimate-cost.js';
export { DEFAULT_PRICES, type FullPrice, type ModelPrice, type PriceTable, priceOf } from './prices.js';
export { type ResultCost, resultCost } from './result-cost.js';
export type { UsageByModel } from './usage-by-model.js';
export {
  addToTotals,
  emptyTotals,
  type UsageQuery,
  type UsageReport,
  type UsageSource,
  type UsageTotals,
  usageReport,
} from './usage-report.js';
