import { formatTokens, type TaskInfo, type Usage } from '@troupe/core';
import type { Colors } from './colors.js';
import { renderTable } from './table.js';

/** Token counts of one group of model calls (the main agent's runs, or sub-agent tasks). */
export interface UsageTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** Zero tokens. */
export function emptyUsage(): UsageTotals {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
}

/** Adds a reported usage to totals (in place) and returns them. */
export function addUsage(totals: UsageTotals, usage: Usage): UsageTotals {
  totals.input += usage.input;
  totals.output += usage.output;
  totals.cacheRead += usage.cacheRead ?? 0;
  totals.cacheWrite += usage.cacheWrite ?? 0;
  return totals;
}

/** What `/cost` reports: the main agent's finished runs and the session's sub-agent tasks. */
export interface SessionCost {
  main: UsageTotals;
  mainRuns: number;
  /** The session's tasks as the runtime lists them (ended ones carry their usage). */
  tasks: readonly TaskInfo[];
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

/**
 * The `/cost` report: input tokens (prompt-cache reads and writes included, as the API bills
 * them), cache reads with their share of the input, cache writes and output tokens, for the main
 * agent, the sub-agents and the whole session; tasks still running count only their tokens so far.
 */
export function sessionCostLines(cost: SessionCost, colors: Colors): string[] {
  const ended = cost.tasks.filter((task) => task.result);
  const running = cost.tasks.filter((task) => !task.result);
  const subagents = emptyUsage();
  for (const task of ended) addUsage(subagents, task.result!.usage);
  const total = addUsage(addUsage(emptyUsage(), cost.main), subagents);
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
      row(`main agent (${plural(cost.mainRuns, 'run')})`, cost.main),
      row(`sub-agents (${plural(ended.length, 'ended task')})`, subagents),
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
