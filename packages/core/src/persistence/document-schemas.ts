import * as v from 'valibot';
import { FINAL_STATUSES, TASK_STATUSES } from './statuses.js';
import { TASK_FACT_KEYS } from './task-facts.js';

// The valibot schemas of the persisted documents, shared by every store. Loose objects: a field
// added by a newer minor version is kept, not refused.

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

const usageSchema = v.looseObject({ input: v.number(), output: v.number(), total: v.number() });

/** A task's usage split by model (`TaskResult.usageByModel`, the machine's context), when present. */
export const usageByModelSchema = v.optional(
  v.record(v.string(), v.looseObject({ input: v.number(), output: v.number() })),
);

const TERMINATE_REASONS = ['GOAL', 'TIMEOUT', 'MAX_TURNS', 'TOKEN_LIMIT', 'ABORTED', 'ERROR'] as const;

const STATUS_EVENTS = [
  'task.queued',
  'task.started',
  'task.awaitingApproval',
  'task.resumed',
  'task.completed',
  'task.failed',
  'task.cancelled',
] as const;

const workspaceOutcomeSchema = v.looseObject({
  path: v.string(),
  branch: v.optional(v.string()),
  kept: v.boolean(),
  files: count,
  added: count,
  removed: count,
  changes: v.pipe(
    v.array(v.looseObject({ file: v.string(), added: count, removed: count })),
    v.maxLength(50),
  ),
});

export const resultSchema = v.looseObject({
  taskId: v.string(),
  agent: v.string(),
  status: v.picklist(FINAL_STATUSES),
  terminateReason: v.picklist(TERMINATE_REASONS),
  output: v.optional(v.unknown()),
  turns: count,
  toolCalls: count,
  durationMs: v.number(),
  model: v.string(),
  usage: usageSchema,
  usageByModel: v.optional(v.record(v.string(), v.looseObject({ input: v.number(), output: v.number() }))),
  error: v.optional(v.looseObject({ name: v.string(), code: v.string(), message: v.string() })),
  workspace: v.optional(workspaceOutcomeSchema),
});

export const messageSchema = v.looseObject({
  role: v.picklist(['user', 'assistant']),
  content: v.union([v.string(), v.array(v.looseObject({ type: v.string() }))]),
});

/** A fork's link to the task and step it came from (`runtime.fork`). */
const forkLinkSchema = v.looseObject({
  taskId: v.string(),
  step: count,
  shiftMs: v.number(),
  editedEntry: v.optional(count),
});

export const specSchema = v.looseObject({
  taskId: v.string(),
  agent: v.string(),
  description: v.string(),
  prompt: v.string(),
  sessionKey: v.string(),
  parentTaskId: v.optional(v.string()),
  depth: count,
  background: v.boolean(),
  announce: v.boolean(),
  model: v.string(),
  system: v.string(),
  tools: v.array(v.string()),
  requestTools: v.optional(
    v.array(v.looseObject({ name: v.string(), description: v.string(), input_schema: v.looseObject({}) })),
  ),
  limits: v.looseObject({ maxTurns: v.number(), tokenBudget: v.number(), timeoutMs: v.number() }),
  graceMs: v.optional(v.pipe(v.number(), v.minValue(0))),
  deadlineCap: v.optional(v.number()),
  forkedFrom: v.optional(forkLinkSchema),
  messages: v.array(messageSchema),
  createdAt: v.number(),
  workspace: v.optional(
    v.looseObject({ isolation: v.string(), path: v.string(), branch: v.optional(v.string()) }),
  ),
  team: v.optional(v.looseObject({ teamId: v.string(), member: v.optional(v.string()) })),
});

export const statusRecordSchema = v.pipe(
  v.looseObject({
    taskId: v.string(),
    event: v.picklist(STATUS_EVENTS),
    status: v.picklist(TASK_STATUSES),
    at: v.number(),
    spec: v.optional(specSchema),
    result: v.optional(resultSchema),
  }),
  v.check(
    (record) =>
      (!record.spec || record.spec.taskId === record.taskId) &&
      (!record.result || record.result.taskId === record.taskId),
    'spec.taskId and result.taskId must equal taskId',
  ),
);

/**
 * A task's summary as an index keeps it: its id, status, last update and result, with the facts of
 * its spec (`TASK_FACT_KEYS`: no prompt, system prompt or conversation), each checked as in a
 * status record.
 */
export const summaryRowSchema = v.pipe(
  v.looseObject({
    taskId: v.string(),
    status: v.picklist(TASK_STATUSES),
    updatedAt: v.number(),
    facts: v.pick(specSchema, TASK_FACT_KEYS),
    result: v.optional(resultSchema),
  }),
  v.check(
    (row) => row.facts.taskId === row.taskId && (!row.result || row.result.taskId === row.taskId),
    'facts.taskId and result.taskId must equal taskId',
  ),
);

export const journalEntrySchema = v.looseObject({
  seq: count,
  event: v.looseObject({ type: v.string(), at: v.number() }),
  forkedFrom: v.optional(forkLinkSchema),
});

export const snapshotDocumentSchema = v.pipe(
  v.looseObject({
    taskId: v.string(),
    journalLength: count,
    savedAt: v.number(),
    snapshot: v.unknown(),
  }),
  v.check((document) => 'snapshot' in document && document.snapshot !== undefined, 'snapshot is missing'),
);

export const resultDocumentSchema = v.looseObject({ result: resultSchema });
