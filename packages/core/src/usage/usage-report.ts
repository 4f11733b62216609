import type { Usage } from '../model/types.js';
import type { TaskQuery } from '../persistence/types.js';
import type { TaskHistoryPage } from '../runtime/task-client.js';
import type { TaskInfo } from '../runtime/task-info.js';
import { estimateCost } from './estimate-cost.js';
import { DEFAULT_PRICES, type PriceTable, priceOf } from './prices.js';
import { usageParts } from './usage-by-model.js';

/** Tokens and estimated cost of a group of ended tasks (a session's main-agent runs included). */
export interface UsageTotals {
  /** Ended tasks (and main-agent runs) counted. */
  tasks: number;
  /** Every input token, cache reads and writes included. */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Of `cacheWrite`, tokens written to 1-hour cache entries. */
  cacheWrite1h: number;
  /** Estimated cost in US dollars, from the runtime's price table (an estimate, not a bill). */
  cost: number;
  /**
   * Tasks (or, of a task that used several models, parts) whose model has no price in the table:
   * their tokens count, their cost does not.
   */
  unpriced: number;
}

/** Which tasks {@link usageReport} counts: every given filter must match. */
export interface UsageQuery {
  taskId?: string;
  sessionKey?: string;
  agent?: string;
  /**
   * A model that answered: a task that used several counts only its part on that model (see
   * `TaskResult.usageByModel`).
   */
  model?: string;
}

/** What `runtime.usage(query)` answers: totals, and the same split by agent, model and session. */
export interface UsageReport {
  total: UsageTotals;
  /**
   * Of `total`, the sessions' main-agent runs (depth 0: one per message a session answered,
   * stored when it ended); the rest is sub-agent tasks.
   */
  main: UsageTotals;
  byAgent: Record<string, UsageTotals>;
  byModel: Record<string, UsageTotals>;
  bySession: Record<string, UsageTotals>;
  /** Matching tasks that have not ended (not counted yet: a task's usage is stored with its result). */
  unfinished: number;
}

/** Where {@link usageReport} reads tasks from: a runtime or a cluster client (`TaskClient`). */
export interface UsageSource {
  /** One task by id, live or stored (as `runtime.find`). */
  find(id: string): Promise<TaskInfo | undefined>;
  /** A page of tasks matching `query`, newest first (as `runtime.history`). */
  history(query?: TaskQuery): Promise<TaskHistoryPage>;
}

/** Zero tokens, zero cost. */
export function emptyTotals(): UsageTotals {
  return {
    tasks: 0,
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    cacheWrite1h: 0,
    cost: 0,
    unpriced: 0,
  };
}

/**
 * Adds one ended task's (or call's) usage on `model` to `totals`, in place; returns them. With
 * `{ task: false }` it adds tokens and cost only (another part of a task already counted).
 */
export function addToTotals(
  totals: UsageTotals,
  usage: Usage,
  model: string | undefined,
  prices: PriceTable = DEFAULT_PRICES,
  options: { task?: boolean } = {},
): UsageTotals {
  if (options.task !== false) totals.tasks++;
  totals.input += usage.input;
  totals.output += usage.output;
  totals.cacheRead += usage.cacheRead ?? 0;
  totals.cacheWrite += usage.cacheWrite ?? 0;
  totals.cacheWrite1h += usage.cacheWrite1h ?? 0;
  const price = priceOf(model, prices);
  if (price) totals.cost += estimateCost(usage, price);
  else totals.unpriced++;
  return totals;
}

const PAGE = 1_000;

function matches(info: TaskInfo, query: UsageQuery): boolean {
  return (
    (query.sessionKey === undefined || info.sessionKey === query.sessionKey) &&
    (query.agent === undefined || info.agent === query.agent)
  );
}

/**
 * The usage ledger: tokens (input, output, cache read, cache write) and estimated cost of the ended
 * tasks that match `query`, in total and by agent, model and session. It is derived from the
 * stored task documents (each result carries its usage and model, split by model when several
 * answered, each part priced under its own), so it survives restarts and covers tasks that cluster
 * workers ran; it pages through `history` (indexed by session and agent). Sessions store each
 * main-agent run as an ended task of depth 0, so they are counted too (and apart, in `main`).
 */
export async function usageReport(
  source: UsageSource,
  query: UsageQuery = {},
  prices: PriceTable = DEFAULT_PRICES,
): Promise<UsageReport> {
  const report: UsageReport = {
    total: emptyTotals(),
    main: emptyTotals(),
    byAgent: {},
    byModel: {},
    bySession: {},
    unfinished: 0,
  };
  const group = (table: Record<string, UsageTotals>, key: string) => {
    if (!Object.hasOwn(table, key))
      Object.defineProperty(table, key, { value: emptyTotals(), enumerable: true });
    return table[key]!;
  };
  const count = (info: TaskInfo) => {
    if (!matches(info, query)) return;
    const result = info.result;
    if (!result) {
      if (query.model === undefined || info.model === query.model) report.unfinished++;
      return;
    }
    const parts = usageParts(result.usage, result.model, result.usageByModel).filter(
      ([model]) => query.model === undefined || model === query.model,
    );
    if (parts.length === 0) return;
    const groups = [
      report.total,
      group(report.byAgent, info.agent),
      group(report.bySession, info.sessionKey),
    ];
    if (info.depth === 0) groups.push(report.main);
    parts.forEach(([model, usage], index) => {
      for (const totals of groups) addToTotals(totals, usage, model, prices, { task: index === 0 });
      addToTotals(group(report.byModel, model), usage, model, prices);
    });
  };
  if (query.taskId !== undefined) {
    const info = await source.find(query.taskId);
    if (info) count(info);
    return report;
  }
  const filter: TaskQuery = { limit: PAGE };
  if (query.sessionKey !== undefined) filter.sessionKey = query.sessionKey;
  if (query.agent !== undefined) filter.agent = query.agent;
  let cursor: string | undefined;
  do {
    const page = await source.history(cursor ? { ...filter, cursor } : filter);
    for (const info of page.tasks) count(info);
    cursor = page.cursor;
  } while (cursor);
  return report;
}
