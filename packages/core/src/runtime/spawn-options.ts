import * as v from 'valibot';
import { ValidationError } from '../errors.js';
import type { Message } from '../model/types.js';
import type { TaskLimits } from '../persistence/types.js';

/** Options of `runtime.spawn`. */
export interface SpawnOptions {
  /** Agent name (case-insensitive; seed aliases like `Explore` resolve). */
  agent: string;
  /** What the sub-agent must do. Must not be empty. */
  prompt: string;
  /** A short label (3-7 words) shown in progress lines; defaults to the prompt's start. */
  description?: string;
  /** Groups tasks for `cancelSession`; defaults to `default`. */
  sessionKey?: string;
  /** Model override: an alias or a full id. */
  model?: string;
  /** Structured input, checked against the agent's input schema. */
  input?: unknown;
  /** Run in the background (the result still resolves `handle.result`). */
  background?: boolean;
  /** Announce the result back into the session (what the `spawn` tool does). */
  announce?: boolean;
  /** The parent's conversation, forked into the child when the agent has `forkContext`. */
  context?: Message[];
  /** Per-task limit overrides (they can only be capped further by a parent). */
  limits?: Partial<TaskLimits>;
  /** The task that started this one (nesting). */
  parentTaskId?: string;
}

const positive = v.pipe(v.number(), v.integer(), v.minValue(1));
const SpawnOptionsSchema = v.strictObject({
  agent: v.pipe(v.string(), v.trim(), v.minLength(1, 'agent must name an agent')),
  prompt: v.pipe(
    v.string(),
    v.check((text) => text.trim().length > 0, 'prompt must not be empty'),
  ),
  description: v.optional(v.string()),
  sessionKey: v.optional(v.pipe(v.string(), v.minLength(1, 'sessionKey must not be empty'))),
  model: v.optional(v.pipe(v.string(), v.minLength(1))),
  input: v.optional(v.unknown()),
  background: v.optional(v.boolean()),
  announce: v.optional(v.boolean()),
  context: v.optional(
    v.array(v.looseObject({ role: v.picklist(['user', 'assistant']), content: v.unknown() })),
  ),
  limits: v.optional(
    v.strictObject({
      maxTurns: v.optional(positive),
      tokenBudget: v.optional(positive),
      timeoutMs: v.optional(positive),
    }),
  ),
  parentTaskId: v.optional(v.string()),
});

/** Validates spawn options; throws a `ValidationError` naming every bad field. */
export function parseSpawnOptions(options: unknown): SpawnOptions {
  const parsed = v.safeParse(SpawnOptionsSchema, options);
  if (!parsed.success) {
    const issues = parsed.issues.map((issue) => {
      const path = v.getDotPath(issue);
      return path ? `${path}: ${issue.message}` : issue.message;
    });
    throw new ValidationError(`Invalid spawn options: ${issues.join('; ')}.`, issues);
  }
  return parsed.output as SpawnOptions;
}
