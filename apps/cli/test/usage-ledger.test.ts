import { emptyTotals } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { createColors } from '../src/render/colors.js';
import { formatDollars, usageLedgerLines } from '../src/render/usage-ledger.js';
import { ledgerOf } from './helpers/usage-ledger.js';

const plain = createColors(false);

describe('/cost by agent and model', () => {
  it('lists tokens and estimated cost per agent and per model, most expensive first, and names unpriced models', async () => {
    const report = await ledgerOf([
      {
        agent: 'explore',
        model: 'claude-haiku-4-5',
        usage: { input: 1_000_000, output: 0, cacheRead: 900_000 },
      }, // 100k × $1 + 900k × $0.1 = $0.19
      { agent: 'reviewer', model: 'claude-sonnet-4-5', usage: { input: 1_000_000, output: 100_000 } }, // $3 + $1.5 = $4.50
      { agent: 'local', model: 'llama-3', usage: { input: 5_000, output: 100 } },
    ]);
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
