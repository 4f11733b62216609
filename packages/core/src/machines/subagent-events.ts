import type { SerializedError } from '../errors.js';
import type { ModelResponse, ToolResultBlock } from '../model/types.js';
import type { ToolAccess } from '../tools/define-tool.js';

/** What a `PreToolUse` hook changed about a call that runs (or awaits approval). */
export interface HookedCallFields {
  /** The input a `PreToolUse` hook put in place of the model's (already checked against the schema). */
  input?: unknown;
  /** A `PreToolUse` hook's `additionalContext`, given to the model with the call's result. */
  context?: string;
}

/**
 * How one tool call of a model response will be handled, decided by the runtime when the
 * response arrives (registry and schema check, approval policy) and recorded in the event so the
 * machine stays deterministic. `hook`: a `PreToolUse` hook is asked just before the call runs;
 * its answer (`tool.hooked`) replaces the entry with one of the others.
 */
export type ToolCallPlan =
  | ({ toolUseId: string; name: string; access: ToolAccess; disposition: 'run' } & HookedCallFields)
  | ({
      toolUseId: string;
      name: string;
      access: ToolAccess;
      disposition: 'approval';
      /** A `PreToolUse` hook allowed the call: the host is not asked (a policy's denial still holds). */
      hookAllowed?: true;
    } & HookedCallFields)
  | { toolUseId: string; name: string; access: ToolAccess; disposition: 'hook' }
  | { toolUseId: string; name: string; disposition: 'rejected'; result: ToolResultBlock };

/** The outcome of checking a final answer against the agent's output schema. */
export type OutputCheck = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Every event the subagent machine consumes. Each carries `at` (ms since epoch, from the runtime's
 * clock): the machine never reads a clock, so the journal of these events replays exactly.
 */
export type SubagentEvent =
  | {
      type: 'task.started';
      at: number;
      deadline: number;
      /**
       * Text given to the task with its prompt, gathered when it started (its agent memory,
       * `SubagentStart` hooks' context): journaled, so restore and replay never gather it again.
       */
      context?: string[];
    }
  | {
      type: 'model.responded';
      at: number;
      turn: number;
      response: ModelResponse;
      plan: ToolCallPlan[];
      outputCheck?: OutputCheck;
      /** A `SubagentStop` hook blocked this final answer: the task goes on with this reason. */
      stopBlocked?: string;
    }
  | { type: 'model.failed'; at: number; turn: number; error: SerializedError }
  /**
   * What `PreToolUse` hooks answered about the next calls (the next one, and the read calls that
   * run with it): each replaces the plan's `hook` entry of the same id.
   */
  | { type: 'tool.hooked'; at: number; plan: ToolCallPlan[] }
  /** A hook answered `continue: false`: the task ends `cancelled`, `reason` naming the hook. */
  | { type: 'hook.stopped'; at: number; reason: string }
  | { type: 'tool.started'; at: number; toolUseId: string }
  | { type: 'tool.finished'; at: number; toolUseId: string; result: ToolResultBlock }
  | { type: 'approval.granted'; at: number; toolUseId: string }
  | { type: 'approval.denied'; at: number; toolUseId: string; reason?: string }
  | { type: 'deadline.passed'; at: number }
  | { type: 'cancel.requested'; at: number; reason?: string }
  /** A message for the task from its parent or the host (`runtime.steer`), given at its next turn. */
  | { type: 'task.steered'; at: number; text: string };
