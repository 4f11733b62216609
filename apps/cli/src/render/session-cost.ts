import { formatTokens, type TaskInfo, type UsageReport } from '@troupe/core';
import type { Colors } from './colors.js';
import { renderTable } from './table.js';

/** Token counts of one group of model calls (the main agent's runs, or sub-agent tasks). */
export interface UsageTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** What `/cost` reports: the session's ledger, and its tasks still running (not in the ledger yet). */
export interface SessionCost {
  /** `runtime.usage({ sessionKey })`: the main agent's ended runs (`main`) and ended tasks. */
  report: UsageReport;
  /** The session's tasks that have not ended (their tokens so far are told apart). */
  running: readonly TaskInfo[];
}

/** The percentage of `part` in `whole`, rounded (0 when `whole` is 0). */
function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 100) : 0;
}

function row(name: string, totals: UsageTotals): string[] {
  return [
    name,
    formatTokens(totals.input),
    `${formatTokens(totals.cacheRead)} (${percent(totals.cacheRead, totals.input)}%)`,
    formatTokens(totals.cacheWrite),
    formatTokens(totals.output),
  ];
}

/** `whole` less `part`, field by field. */
function minus(whole: UsageTotals, part: UsageTotals): UsageTotals {
  return {
    input: whole.input - part.input,
    output: whole.output - part.output,
    cacheRead: whole.cacheRead - part.cacheRead,
    cacheWrite: whole.cacheWrite - part.cacheWrite,
  };
}

/**
 * The `/cost` report: input tokens (prompt-cache reads and writes included, as the API bills
 * them), cache reads with their share of the input, cache writes and output tokens, for the main
 * agent, the sub-agents and the whole session, all from the ledger; tasks still running count
 * only their tokens so far.
 */
export function sessionCostLines(cost: SessionCost, colors: Colors): string[] {
  const { total, main } = cost.report;
  const subagents = minus(total, main);
  const endedTasks = total.tasks - main.tasks;
  const running = cost.running;
  const runningTokens = running.reduce((sum, task) => sum + task.tokens, 0);
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  const table = renderTable(
    [
      { header: '' },
      { header: 'INPUT', align: 'right' },
      { header: 'CACHE READ', align: 'right' },
      { header: 'CACHE WRITE', align: 'right' },
      { header: 'OUTPUT', align: 'right' },
    ],
    [
      row(`main agent (${plural(main.tasks, 'run')})`, main),
      row(`sub-agents (${plural(endedTasks, 'ended task')})`, subagents),
      row('total', total),
    ],
    { header: colors.bold },
  );
  const lines = [colors.bold('Tokens of this session'), ...table];
  if (running.length > 0)
    lines.push(
      colors.dim(
        `Not counted yet: ${plural(running.length, 'unfinished task')} (${formatTokens(runningTokens)} tokens so far).`,
      ),
    );
  lines.push(
    total.input > 0
      ? `Cache hits: ${percent(total.cacheRead, total.input)}% of the input tokens were read from the prompt cache.`
      : colors.dim('No model calls have finished yet.'),
  );
  return lines;
}
