import * as v from 'valibot';
import { messageSchema, usageByModelSchema } from './document-schemas.js';

// The shape of the subagent machine's persisted snapshot (`TaskSnapshotDocument.snapshot`), as far
// as the runtime reads it when it drives a restored task. A snapshot document is checked as a
// whole by `parseSnapshotDocument`; what it holds is XState's, checked here before it is restored,
// so that a damaged one (a `null` context) fails its task alone instead of the runtime.

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

const planSchema = v.looseObject({
  toolUseId: v.string(),
  name: v.string(),
  disposition: v.picklist(['run', 'approval', 'hook', 'rejected']),
});

const contextSchema = v.looseObject({
  task: v.looseObject({
    taskId: v.string(),
    agent: v.string(),
    model: v.string(),
    limits: v.looseObject({ maxTurns: v.number(), tokenBudget: v.number(), timeoutMs: v.number() }),
    graceMs: v.number(),
    hasOutputSchema: v.boolean(),
  }),
  messages: v.array(messageSchema),
  turns: count,
  toolCalls: count,
  usage: v.looseObject({ input: v.number(), output: v.number() }),
  modelUsed: v.optional(v.string()),
  usageByModel: usageByModelSchema,
  startedAt: v.number(),
  deadline: v.number(),
  now: v.number(),
  approvalSince: v.number(),
  step: v.looseObject({
    plan: v.array(planSchema),
    results: v.array(v.looseObject({ type: v.string() })),
    approved: v.array(v.string()),
    inFlight: v.array(v.string()),
  }),
  steering: v.optional(v.array(v.string())),
});

const persistedSubagentSnapshotSchema = v.looseObject({
  status: v.picklist(['active', 'done', 'error', 'stopped']),
  value: v.union([v.string(), v.looseObject({ running: v.string() })]),
  context: contextSchema,
});

/**
 * Checks a persisted subagent snapshot before it is restored. Returns why it cannot be used (the
 * first few problems, each with its path, e.g. `context: Invalid type: Expected Object but received
 * null`), or undefined when it has the shape the runtime reads.
 */
export function persistedSnapshotProblem(snapshot: unknown): string | undefined {
  const parsed = v.safeParse(persistedSubagentSnapshotSchema, snapshot);
  if (parsed.success) return undefined;
  return parsed.issues
    .slice(0, 3)
    .map((issue) => {
      const path = v.getDotPath(issue);
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}
