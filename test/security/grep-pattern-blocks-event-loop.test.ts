// Issue #14, item 4: a grep pattern ripgrep refuses (look-around) runs in the JavaScript scanner;
// one with catastrophic backtracking used to block the event loop for as long as it ran (no
// deadline, no cancel, no other task). It now runs in a worker under a time limit.
import { createGrepTool } from '@troupe/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, outcome, type Sandbox, toolContext } from './helpers.js';

let sandbox: Sandbox;
beforeEach(async () => {
  // 2^40 backtracking steps per line: it never ends on any machine (24 a's took 0.3 to 5 s here,
  // depending on load, so that the limit sometimes did not fire).
  sandbox = await createSandbox({ 'victim.txt': `${'a'.repeat(40)}!\n`.repeat(3), 'fine.txt': 'TOP\nab\n' });
});
afterEach(() => sandbox.cleanup());

/** Runs `work` while a timer ticks every 20 ms; returns its result and the longest gap between ticks. */
async function withLoopWatch<T>(work: () => Promise<T>): Promise<{ value: T; longestGapMs: number }> {
  let last = performance.now();
  let longestGapMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
  }, 20);
  try {
    return { value: await work(), longestGapMs };
  } finally {
    clearInterval(timer);
  }
}

describe.each([
  ['JavaScript scanner', false],
  ['ripgrep refusing look-around', 'rg'],
] as const)('grep with a catastrophic look-around pattern (%s)', (_name, ripgrep) => {
  it('fails the call after the time limit and never blocks the event loop', async () => {
    const grep = createGrepTool({ root: sandbox.root, ripgrep, grepPatternTimeoutMs: 300 });
    const { value, longestGapMs } = await withLoopWatch(() =>
      outcome(() => grep.execute({ pattern: '^(?!b)(a+)+$', output_mode: 'content' }, toolContext())),
    );
    expect(value).toMatch(/^ERROR: The pattern .* ran for more than 300 ms/);
    expect(longestGapMs).toBeLessThan(1_000);
  }, 60_000);

  it('a look-around pattern that is fine still finds its lines', async () => {
    const grep = createGrepTool({ root: sandbox.root, ripgrep, grepPatternTimeoutMs: 5_000 });
    const text = await outcome(() =>
      grep.execute({ pattern: '(?<=T)OP', output_mode: 'content' }, toolContext()),
    );
    expect(text).toBe('fine.txt:1:TOP');
  }, 60_000);

  it('cancelling the call stops the search at once', async () => {
    const grep = createGrepTool({ root: sandbox.root, ripgrep, grepPatternTimeoutMs: 60_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled by the test')), 200);
    const { value, longestGapMs } = await withLoopWatch(() =>
      outcome(() => grep.execute({ pattern: '^(?!b)(a+)+$' }, toolContext(controller.signal))),
    );
    expect(value).toMatch(/^ERROR: .*cancelled by the test/);
    expect(longestGapMs).toBeLessThan(1_000);
  }, 60_000);
});
