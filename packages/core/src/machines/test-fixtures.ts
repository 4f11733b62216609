// Shared fixtures of the machines' tests (not exported from the package).
import type { SubagentEvent, ToolCallPlan } from './subagent-events.js';
import type { SubagentInput } from './subagent-machine.js';

/** A subagent's input, with `overrides` (limits are merged). */
export function subagentInput(overrides: Partial<SubagentInput> = {}): SubagentInput {
  return {
    taskId: 't1',
    agent: 'explore',
    model: 'model-x',
    messages: [{ role: 'user', content: 'Find the auth code' }],
    graceMs: 500,
    hasOutputSchema: false,
    ...overrides,
    limits: { maxTurns: 2, tokenBudget: 1000, timeoutMs: 10_000, ...overrides.limits },
  };
}

/** One call of a turn's plan: a read that runs, a write that needs approval, or a rejected call. */
export function planCall(id: string, disposition: 'run' | 'approval' | 'rejected'): ToolCallPlan {
  return disposition === 'rejected'
    ? {
        toolUseId: id,
        name: 'nope',
        disposition,
        result: { type: 'tool_result', tool_use_id: id, content: 'no such tool', is_error: true },
      }
    : {
        toolUseId: id,
        name: disposition === 'run' ? 'read' : 'write',
        access: disposition === 'run' ? 'read' : 'write',
        disposition,
      };
}

/** A model response calling each tool of `plan`, at `at`, for `turn`. */
export function respondedWith(plan: ToolCallPlan[], at: number, turn = 1): SubagentEvent {
  return {
    type: 'model.responded',
    at,
    turn,
    response: {
      content: plan.map((call) => ({
        type: 'tool_use' as const,
        id: call.toolUseId,
        name: call.name,
        input: {},
      })),
      usage: { input: 10, output: 10 },
    },
    plan,
  };
}

/** `tool.finished` for `toolUseId`, answered with `content`. */
export function toolFinished(toolUseId: string, at: number, content = 'ok'): SubagentEvent {
  return {
    type: 'tool.finished',
    at,
    toolUseId,
    result: { type: 'tool_result', tool_use_id: toolUseId, content },
  };
}
