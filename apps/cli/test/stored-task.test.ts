import type { StoredTask } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { storedTaskRow } from '../src/render/stored-task.js';

function task(status: StoredTask['status'], createdAt: number): StoredTask {
  return {
    spec: {
      taskId: 't_1',
      agent: 'explore',
      description: 'find login',
      prompt: 'find login',
      sessionKey: 's',
      depth: 1,
      background: false,
      announce: false,
      model: 'm',
      system: '',
      tools: [],
      limits: { maxTurns: 10, tokenBudget: 1000, timeoutMs: 60_000 },
      messages: [],
      createdAt,
    },
    status,
    updatedAt: createdAt,
  };
}

describe('a stored task as a table row', () => {
  it('a running task shows how long ago it started, not 0ms', () => {
    expect(storedTaskRow(task('running', 1_000), 43_000).durationMs).toBe(42_000);
    expect(storedTaskRow(task('queued', 1_000), 3_000).durationMs).toBe(2_000);
  });
});
