import type { TaskInfo } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { createColors } from '../src/render/colors.js';
import { sessionCostLines } from '../src/render/session-cost.js';

const plain = createColors(false);

function task(id: string, extra: Partial<TaskInfo>): TaskInfo {
  return {
    id,
    agent: 'explore',
    status: 'completed',
    sessionKey: 's',
    description: id,
    background: false,
    depth: 1,
    model: 'claude-haiku-5-5',
    createdAt: 0,
    turns: 1,
    toolCalls: 0,
    tokens: 0,
    elapsedMs: 0,
    ...extra,
  };
}

function ended(
  id: string,
  usage: { input: number; output: number; cacheRead?: number; cacheWrite?: number },
) {
  return task(id, {
    result: {
      taskId: id,
      agent: 'explore',
      status: 'completed',
      terminateReason: 'GOAL',
      output: '',
      turns: 1,
      toolCalls: 0,
      durationMs: 1,
      model: 'claude-haiku-5-5',
      usage: { ...usage, total: usage.input + usage.output },
    },
  });
}

describe('/cost', () => {
  it('adds up the main agent and ended tasks, with cache reads as a share of the input', () => {
    const lines = sessionCostLines(
      {
        main: { input: 10_000, output: 500, cacheRead: 8_000, cacheWrite: 1_000 },
        mainRuns: 3,
        tasks: [
          ended('a', { input: 2_000, output: 100, cacheRead: 0 }),
          ended('b', { input: 8_000, output: 400 }),
          task('c', { status: 'running', tokens: 1_500 }),
        ],
      },
      plain,
    );
    const text = lines.join('\n');
    expect(text).toMatch(/main agent \(3 runs\)\s+10k\s+8k \(80%\)\s+1k\s+500/);
    expect(text).toMatch(/sub-agents \(2 ended tasks\)\s+10k\s+0 \(0%\)\s+0\s+500/);
    expect(text).toMatch(/total\s+20k\s+8k \(40%\)\s+1k\s+1k/);
    expect(text).toContain('Not counted yet: 1 unfinished task (1.5k tokens so far).');
    expect(text).toContain('Cache hits: 40% of the input tokens were read from the prompt cache.');
  });

  it('says so when no model call has finished', () => {
    const text = sessionCostLines(
      { main: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, mainRuns: 0, tasks: [] },
      plain,
    ).join('\n');
    expect(text).toContain('No model calls have finished yet.');
  });
});
