import { formatTokens, type UsageReport, type UsageTotals } from '@troupe/core';
import type { Colors } from './colors.js';
import { renderTable } from './table.js';

/** An estimated cost in US dollars: `$0.0123` under a cent, else `$1.23`. */
export function formatDollars(cost: number): string {
  return `$${cost < 0.01 ? cost.toFixed(4) : cost.toFixed(2)}`;
}

function rows(groups: Record<string, UsageTotals>): string[][] {
  return Object.entries(groups)
    .sort(([, a], [, b]) => b.cost - a.cost || b.input - a.input)
    .map(([name, totals]) => [
      name,
      String(totals.tasks),
      formatTokens(totals.input),
      formatTokens(totals.cacheRead),
      formatTokens(totals.cacheWrite),
      formatTokens(totals.output),
      totals.unpriced === totals.tasks && totals.tasks > 0 ? '?' : formatDollars(totals.cost),
    ]);
}

function table(title: string, groups: Record<string, UsageTotals>, colors: Colors): string[] {
  return renderTable(
    [
      { header: title },
      { header: 'RUNS', align: 'right' },
      { header: 'INPUT', align: 'right' },
      { header: 'CACHE READ', align: 'right' },
      { header: 'CACHE WRITE', align: 'right' },
      { header: 'OUTPUT', align: 'right' },
      { header: 'COST', align: 'right' },
    ],
    rows(groups),
    { header: colors.bold },
  );
}

/**
 * The ledger's split of `/cost`: tokens and estimated cost by agent and by model (the main agent's
 * runs included, as its agent, `main` by default), and the total. `listPrices`: the estimate is at
 * Anthropic's list prices (default), else at the prices of the settings (`prices`).
 */
export function usageLedgerLines(
  report: UsageReport,
  colors: Colors,
  options: { listPrices?: boolean } = {},
): string[] {
  if (report.total.tasks === 0) return [];
  const lines = [
    '',
    ...table('AGENT', report.byAgent, colors),
    '',
    ...table('MODEL', report.byModel, colors),
    '',
    `Estimated cost: ${colors.bold(formatDollars(report.total.cost))}`,
  ];
  const unpriced = Object.entries(report.byModel)
    .filter(([, totals]) => totals.unpriced > 0)
    .map(([model]) => model);
  if (unpriced.length > 0)
    lines.push(colors.dim(`No price known for ${unpriced.join(', ')}: not in the estimate.`));
  const at = options.listPrices === false ? 'the prices of your settings' : 'list prices';
  lines.push(
    colors.dim(`Estimates at ${at} (prompt-cache reads 0.1×, writes 1.25× or 2× for 1 hour, unless set).`),
  );
  return lines;
}
