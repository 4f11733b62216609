import type { SerializedError } from '../errors.js';
import type { ModelResponse, ToolResultBlock } from '../model/types.js';
import type { ToolAccess } from '../tools/define-tool.js';

/**
 * How one tool call of a model response will be handled, decided by the runtime when the
 * response arrives (registry and schema check, approval policy) and recorded in the event so the
 * machine stays deterministic.
 */
export type ToolCallPlan =
  | { toolUseId: string; name: string; access: ToolAccess; disposition: 'run' }
  | { toolUseId: string; name: string; access: ToolAccess; disposition: 'approval' }
  | { toolUseId: string; name: string; disposition: 'rejected'; result: ToolResultBlock };

/** The outcome of checking a final answer against the agent's output schema. */
export type OutputCheck = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Every event the subagent machine consumes. Each carries `at` (ms since epoch, from the runtime's
 * clock): the machine never reads a clock, so the journal of these events replays exactly.
 */
export type SubagentEvent =
  | { type: 'START'; at: number; deadline: number }
  | {
      type: 'MODEL_RESPONDED';
      at: number;
      turn: number;
      response: ModelResponse;
      plan: ToolCallPlan[];
      outputCheck?: OutputCheck;
    }
  | { type: 'MODEL_FAILED'; at: number; turn: number; error: SerializedError }
  | { type: 'TOOL_STARTED'; at: number; toolUseId: string }
  | { type: 'TOOL_FINISHED'; at: number; toolUseId: string; result: ToolResultBlock }
  | { type: 'APPROVE'; at: number; toolUseId: string }
  | { type: 'DENY'; at: number; toolUseId: string; reason?: string }
  | { type: 'TIMEOUT'; at: number }
  | { type: 'CANCEL'; at: number; reason?: string };
