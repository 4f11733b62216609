import { describe, expect, it } from 'vitest';
import { createColors } from '../src/render/colors.js';
import { sessionCostLines } from '../src/render/session-cost.js';
import { ledgerOf, taskInfo } from './helpers/usage-ledger.js';

const plain = createColors(false);

describe('/cost', () => {
  it('splits the ledger into the main agent and ended tasks, with cache reads as a share of the input', async () => {
    const report = await ledgerOf([
      { usage: { input: 4_000, output: 200, cacheRead: 3_000, cacheWrite: 1_000 }, depth: 0 },
      { usage: { input: 6_000, output: 300, cacheRead: 5_000 }, depth: 0 },
      { usage: { input: 0, output: 0 }, depth: 0 },
      { usage: { input: 2_000, output: 100, cacheRead: 0 } },
      { usage: { input: 8_000, output: 400 } },
    ]);
    const text = sessionCostLines({ report, running: [taskInfo('c', { tokens: 1_500 })] }, plain).join('\n');
    expect(text).toMatch(/main agent \(3 runs\)\s+10k\s+8k \(80%\)\s+1k\s+500/);
    expect(text).toMatch(/sub-agents \(2 ended tasks\)\s+10k\s+0 \(0%\)\s+0\s+500/);
    expect(text).toMatch(/total\s+20k\s+8k \(40%\)\s+1k\s+1k/);
    expect(text).toContain('Not counted yet: 1 unfinished task (1.5k tokens so far).');
    expect(text).toContain('Cache hits: 40% of the input tokens were read from the prompt cache.');
  });

  it('says so when no model call has finished', async () => {
    const text = sessionCostLines({ report: await ledgerOf([]), running: [] }, plain).join('\n');
    expect(text).toContain('No model calls have finished yet.');
  });
});
