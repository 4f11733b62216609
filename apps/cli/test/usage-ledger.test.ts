import { addToTotals, emptyTotals, type UsageReport } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { createColors } from '../src/render/colors.js';
import { formatDollars, usageLedgerLines } from '../src/render/usage-ledger.js';

const plain = createColors(false);

describe('/cost by agent and model', () => {
  it('lists tokens and estimated cost per agent and per model, most expensive first, and names unpriced models', () => {
    const report: UsageReport = {
      total: emptyTotals(),
      main: emptyTotals(),
      byAgent: {},
      byModel: {},
      bySession: {},
      unfinished: 0,
    };
    const add = (agent: string, model: string, input: number, output: number, cacheRead = 0) => {
      const usage = { input, output, cacheRead, cacheWrite: 0 };
      report.byAgent[agent] ??= emptyTotals();
      report.byModel[model] ??= emptyTotals();
      for (const totals of [report.total, report.byAgent[agent], report.byModel[model]])
        addToTotals(totals, usage, model);
    };
    add('explore', 'claude-haiku-4-5', 1_000_000, 0, 900_000); // 100k × $1 + 900k × $0.1 = $0.19
    add('reviewer', 'claude-sonnet-4-5', 1_000_000, 100_000); // $3 + $1.5 = $4.50
    add('local', 'llama-3', 5_000, 100);
    const text = usageLedgerLines(report, plain).join('\n');
    expect(text).toMatch(/AGENT\s+RUNS\s+INPUT\s+CACHE READ\s+CACHE WRITE\s+OUTPUT\s+COST/);
    expect(text).toMatch(
      /reviewer\s+1\s+1M\s+0\s+0\s+100k\s+\$4\.50\n\s*explore\s+1\s+1M\s+900k\s+0\s+0\s+\$0\.19/,
    );
    expect(text).toMatch(/local\s+1\s+5k\s+0\s+0\s+100\s+\?/);
    expect(text).toContain('Estimated cost: $4.69');
    expect(text).toContain('No price known for llama-3: not in the estimate.');
    expect(formatDollars(0.001234)).toBe('$0.0012');
    expect(usageLedgerLines({ ...report, total: emptyTotals() }, plain)).toEqual([]);
  });
});
