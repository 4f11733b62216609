import * as documents from '../persistence/task-documents.js';
import {
  type JournalEntry,
  SCHEMA_VERSION,
  type TaskResult,
  type TaskSnapshotDocument,
  type TaskSpec,
  type TaskStatusRecord,
} from '../persistence/types.js';

// Small, valid documents for store tests: a task's spec, its status records, journal entries,
// snapshot and result. Times are fixed so that tests can compare whole values.

/** A task spec with `taskId`, created at `createdAt`. */
export function specOf(taskId: string, createdAt = 1_000, overrides: Partial<TaskSpec> = {}): TaskSpec {
  return {
    taskId,
    agent: 'explore',
    description: `Task ${taskId}`,
    prompt: `Find ${taskId}`,
    sessionKey: 's1',
    depth: 1,
    background: false,
    announce: false,
    model: 'claude-haiku-5-5',
    system: 'You explore.',
    tools: ['read', 'grep'],
    limits: { maxTurns: 10, tokenBudget: 100_000, timeoutMs: 300_000 },
    graceMs: 30_000,
    messages: [{ role: 'user', content: `Find ${taskId}` }],
    createdAt,
    ...overrides,
  };
}

/** The `task.queued` record that creates a task. */
export function queuedRecord(
  taskId: string,
  at = 1_000,
  overrides: Partial<TaskSpec> = {},
): TaskStatusRecord {
  return { ...documents.queuedRecord(specOf(taskId, at, overrides)), at };
}

/** The `task.started` record. */
export function startedRecord(taskId: string, at = 1_100): TaskStatusRecord {
  return documents.statusRecord(taskId, 'task.started', at);
}

/** A result of `status`. */
export function resultOf(taskId: string, status: TaskResult['status'] = 'completed'): TaskResult {
  return {
    taskId,
    agent: 'explore',
    status,
    terminateReason: status === 'completed' ? 'GOAL' : status === 'cancelled' ? 'ABORTED' : 'ERROR',
    output: `answer of ${taskId}`,
    turns: 2,
    toolCalls: 1,
    durationMs: 900,
    model: 'claude-haiku-5-5',
    usage: { input: 100, output: 20, total: 120 },
  };
}

/** The final record, carrying the result. */
export function finishedRecord(
  taskId: string,
  at = 2_000,
  status: TaskResult['status'] = 'completed',
): TaskStatusRecord {
  return documents.finalRecord(resultOf(taskId, status), at);
}

/** Journal entry `seq`: `task.started` first, then `tool.started` entries. */
export function journalEntryOf(seq: number, at = 1_100 + seq): JournalEntry {
  return documents.journalEntry(
    seq,
    seq === 0
      ? { type: 'task.started', at, deadline: at + 300_000 }
      : { type: 'tool.started', at, toolUseId: `toolu_${seq}` },
  );
}

/** A snapshot document reflecting `journalLength` entries; `marker` tells two apart. */
export function snapshotDocumentOf(
  taskId: string,
  journalLength: number,
  marker = 'turn',
): TaskSnapshotDocument {
  return {
    v: SCHEMA_VERSION,
    taskId,
    journalLength,
    savedAt: 1_500,
    snapshot: { status: 'active', value: { running: 'thinking' }, context: { marker, journalLength } },
  };
}
