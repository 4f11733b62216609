import type {
  JournalEntry,
  TaskResult,
  TaskSnapshotDocument,
  TaskSpec,
  TaskStatusRecord,
} from '@troupe/core';

/** A complete task spec for tests; `prompt` can be padded to make long lines. */
export function specOf(taskId: string, prompt = 'Find the auth code', createdAt = 1_000): TaskSpec {
  return {
    taskId,
    agent: 'explore',
    description: 'Find auth',
    prompt,
    sessionKey: 's1',
    depth: 1,
    background: false,
    announce: false,
    model: 'claude-test',
    system: 'You explore code.',
    tools: ['read', 'grep'],
    limits: { maxTurns: 10, tokenBudget: 100_000, timeoutMs: 300_000 },
    messages: [{ role: 'user', content: prompt }],
    createdAt,
  };
}

export function resultOf(taskId: string, status: TaskResult['status'] = 'completed'): TaskResult {
  return {
    taskId,
    agent: 'explore',
    status,
    terminateReason: status === 'completed' ? 'GOAL' : status === 'cancelled' ? 'ABORTED' : 'ERROR',
    output: 'auth lives in src/auth.ts',
    turns: 2,
    toolCalls: 1,
    durationMs: 1_234,
    model: 'claude-test',
    usage: { input: 100, output: 20, total: 120 },
  };
}

export const queued = (taskId: string, at = 1_000, prompt?: string): TaskStatusRecord => ({
  v: 2,
  taskId,
  event: 'task.queued',
  status: 'queued',
  at,
  spec: specOf(taskId, prompt, at),
});

export const started = (taskId: string, at = 1_100): TaskStatusRecord => ({
  v: 2,
  taskId,
  event: 'task.started',
  status: 'running',
  at,
});

export const finished = (
  taskId: string,
  at = 2_000,
  status: TaskResult['status'] = 'completed',
): TaskStatusRecord => ({
  v: 2,
  taskId,
  event: `task.${status}`,
  status,
  at,
  result: resultOf(taskId, status),
});

export const journalEntry = (seq: number, at = 1_100 + seq): JournalEntry => ({
  v: 2,
  seq,
  event:
    seq === 0
      ? { type: 'task.started', at, deadline: at + 300_000 }
      : { type: 'tool.started', at, toolUseId: `toolu_${seq}` },
});

export const snapshotOf = (taskId: string, journalLength: number, marker = 'turn'): TaskSnapshotDocument => ({
  v: 2,
  taskId,
  journalLength,
  savedAt: 1_500,
  snapshot: { status: 'active', value: { running: 'thinking' }, context: { marker, journalLength } },
});
