import type { TaskSpec } from '@troupe/core';
import { queuedRecord } from '@troupe/core/store';
import { createFileStore } from '@troupe/node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoSummary } from '../src/demo/summary.js';
import { colorsFor } from '../src/render/colors.js';
import { tempDir } from './helpers/cli.js';
import { completedRecord, storedSpec } from './helpers/stored-tasks.js';

// The demo's closing table, read back from the store: an unfinished task's time is how long ago it
// was created (the rows once got the array index as `now`, so it showed 0ms).
const NOW = Date.UTC(2026, 10, 27, 5, 0, 0);

function spec(taskId: string, description: string, createdAt: number): TaskSpec {
  return storedSpec(taskId, {
    description,
    createdAt,
    limits: { maxTurns: 10, tokenBudget: 1_000, timeoutMs: 600_000 },
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('demoSummary', () => {
  it('shows an unfinished task’s time since it was created, a finished one’s run time', async () => {
    const dir = tempDir('demo-summary');
    const store = createFileStore({ dir });
    const done = spec('t_done', 'finished work', NOW - 120_000);
    store.appendStatus(queuedRecord(done));
    store.appendStatus(
      completedRecord(done, NOW - 115_000, { output: 'ok', toolCalls: 3, durationMs: 4_200 }),
    );
    store.appendStatus(queuedRecord(spec('t_open', 'unfinished work', NOW - 90_000)));
    await store.close();

    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const { lines, tasks } = await demoSummary(dir, colorsFor({ isTTY: false }, {}));
    expect(tasks.map((task) => task.spec.taskId)).toEqual(['t_done', 't_open']);
    expect(lines.find((line) => line.includes('finished work'))).toMatch(/completed.*\b4\.2s\b/);
    expect(lines.find((line) => line.includes('unfinished work'))).toMatch(/queued.*\b1m 30s\b/);
  });
});
