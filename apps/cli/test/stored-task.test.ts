import type { StoredTask } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { storedTaskRow } from '../src/render/stored-task.js';
import { storedSpec } from './helpers/stored-tasks.js';

function task(status: StoredTask['status'], createdAt: number): StoredTask {
  return { spec: storedSpec('t_1', { description: 'find login', createdAt }), status, updatedAt: createdAt };
}

describe('a stored task as a table row', () => {
  it('a running task shows how long ago it started, not 0ms', () => {
    expect(storedTaskRow(task('running', 1_000), 43_000).durationMs).toBe(42_000);
    expect(storedTaskRow(task('queued', 1_000), 3_000).durationMs).toBe(2_000);
  });
});
