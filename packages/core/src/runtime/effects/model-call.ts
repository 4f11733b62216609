import { serializeError } from '../../errors.js';
import type { SubagentEvent } from '../../machines/subagent-events.js';
import type { SubagentContext } from '../../machines/subagent-machine.js';
import { textOf, toolUsesOf } from '../../model/content.js';
import type { ModelDelta, ModelRequest, ToolSpec } from '../../model/types.js';
import { validateModelResponse } from '../../model/validate-response.js';
import type { EffectIO } from './effect-io.js';
import { planToolCall } from './plan-tool-call.js';

/**
 * The model effect (`thinking`, `grace`): one model call for `turn`, its response checked (the
 * adapter is a trust boundary: a malformed response fails this task, nothing else) and its tool
 * calls planned. Resolves with the machine's event (`model.responded` or `model.failed`), or
 * undefined once `signal` aborted.
 */
export async function callModel(
  io: EffectIO,
  context: SubagentContext,
  effect: { turn: number; grace: boolean },
  signal: AbortSignal,
): Promise<SubagentEvent | undefined> {
  const { host, spec } = io;
  const { turn, grace } = effect;
  const emitter = host.emitter;
  const onDelta = emitter.listening('task.progress')
    ? (delta: ModelDelta) => {
        if (delta.type === 'tool_use') return;
        const text = delta.type === 'text' ? delta.text : delta.thinking;
        emitter.emit('task.progress', io.event({ kind: delta.type, text }));
      }
    : undefined;
  const request: ModelRequest = {
    model: spec.model,
    system: spec.system,
    messages: context.messages,
    tools: grace ? [] : (io.registry.specs as ToolSpec[]),
    maxTokens: host.maxTokens,
    taskId: spec.taskId,
    agent: spec.agent,
  };
  let raw: unknown;
  try {
    raw = await host.model.generate(request, signal, onDelta ? { onDelta } : undefined);
  } catch (error) {
    if (signal.aborted) return undefined;
    return { type: 'model.failed', at: host.clock.now(), turn, error: serializeError(error) };
  }
  if (signal.aborted) return undefined;
  const checked = validateModelResponse(raw, request);
  if (!checked.ok) {
    const error = { name: 'ModelError', code: 'MODEL_RESPONSE_INVALID', message: checked.message };
    return { type: 'model.failed', at: host.clock.now(), turn, error };
  }
  const response = checked.response;
  if (checked.usageEstimated)
    io.warn(
      'USAGE_ESTIMATED',
      `The model reported no valid usage; estimated ${response.usage.input} input and ${response.usage.output} output tokens from the sizes of the request and the response.`,
    );
  const uses = grace ? [] : toolUsesOf(response.content);
  const seen = new Set<string>();
  const plan = uses.map((use) => planToolCall(io, use, seen, checked.oversizedInputs));
  const event: SubagentEvent = { type: 'model.responded', at: host.clock.now(), turn, response, plan };
  if (!grace && uses.length === 0 && spec.outputSchema) {
    const check = host.checkOutput(spec, textOf(response.content));
    if (check) event.outputCheck = check;
  }
  return event;
}
