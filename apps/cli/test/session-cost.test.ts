import { addToTotals, emptyTotals, type TaskInfo, type Usage, type UsageReport } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { createColors } from '../src/render/colors.js';
import { sessionCostLines } from '../src/render/session-cost.js';

const plain = createColors(false);

function running(id: string, tokens: number): TaskInfo {
  return {
    id,
    agent: 'explore',
    status: 'running',
    sessionKey: 's',
    description: id,
    background: false,
    depth: 1,
    model: 'claude-haiku-5-5',
    createdAt: 0,
    turns: 1,
    toolCalls: 0,
    tokens,
    elapsedMs: 0,
  };
}

/** A session's ledger: main-agent runs (depth 0) and ended tasks, as `runtime.usage` reports them. */
function ledger(runs: { usage: Usage; main?: boolean }[]): UsageReport {
  const report: UsageReport = {
    total: emptyTotals(),
    main: emptyTotals(),
    byAgent: {},
    byModel: {},
    bySession: {},
    unfinished: 0,
  };
  for (const run of runs) {
    addToTotals(report.total, run.usage, 'claude-haiku-5-5');
    if (run.main) addToTotals(report.main, run.usage, 'claude-sonnet-5-5');
  }
  return report;
}

describe('/cost', () => {
  it('splits the ledger into the main agent and ended tasks, with cache reads as a share of the input', () => {
    const report = ledger([
      { usage: { input: 4_000, output: 200, cacheRead: 3_000, cacheWrite: 1_000 }, main: true },
      { usage: { input: 6_000, output: 300, cacheRead: 5_000 }, main: true },
      { usage: { input: 0, output: 0 }, main: true },
      { usage: { input: 2_000, output: 100, cacheRead: 0 } },
      { usage: { input: 8_000, output: 400 } },
    ]);
    const text = sessionCostLines({ report, running: [running('c', 1_500)] }, plain).join('\n');
    expect(text).toMatch(/main agent \(3 runs\)\s+10k\s+8k \(80%\)\s+1k\s+500/);
    expect(text).toMatch(/sub-agents \(2 ended tasks\)\s+10k\s+0 \(0%\)\s+0\s+500/);
    expect(text).toMatch(/total\s+20k\s+8k \(40%\)\s+1k\s+1k/);
    expect(text).toContain('Not counted yet: 1 unfinished task (1.5k tokens so far).');
    expect(text).toContain('Cache hits: 40% of the input tokens were read from the prompt cache.');
  });

  it('says so when no model call has finished', () => {
    const text = sessionCostLines({ report: ledger([]), running: [] }, plain).join('\n');
    expect(text).toContain('No model calls have finished yet.');
  });
});
