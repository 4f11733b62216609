import { EFFORT_THINKING_BUDGET } from '../../definitions/effort.js';
import { patternEngineLoaded, withPatternEngine } from '../../definitions/pattern-engine.js';
import { type SerializedError, serializeError } from '../../errors.js';
import { loadHookRunner } from '../../hooks/load-hook-runner.js';
import type { SubagentEvent } from '../../machines/subagent-events.js';
import type { SubagentContext } from '../../machines/subagent-machine.js';
import { MAX_MODEL_TEXT_CHARS } from '../../model/cap-model-text.js';
import { textOf, toolUsesOf } from '../../model/content.js';
import type { ModelDelta, ModelRequest, ToolSpec } from '../../model/types.js';
import { validateModelResponse } from '../../model/validate-response.js';
import { describeThrown, toPlainJson } from '../../persistence/plain-json.js';
import type { EffectIO } from './effect-io.js';
import { planToolCall } from './plan-tool-call.js';

/**
 * The model effect (`thinking`, `grace`): one model call for `turn`, its response checked (the
 * adapter is a trust boundary: a malformed response fails this task, nothing else) and its tool
 * calls planned. A grace turn sends the same tools as the turns before (so the prompt cache is
 * read) but plans none of its tool calls. Resolves with the machine's event (`model.responded` or `model.failed`), or
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
  // A task whose own workspace could not be opened has no tools and must not go on elsewhere.
  const failure = io.registry.failure?.();
  if (failure) return { type: 'model.failed', at: host.clock.now(), turn, error: failure };
  const onDelta = emitter.listening('task.progress')
    ? (delta: ModelDelta) => {
        // Called by the adapter, maybe with anything: progress is best effort and never throws.
        try {
          const kind = delta.type;
          if (kind !== 'text' && kind !== 'thinking') return;
          const text =
            kind === 'text' ? (delta as { text?: unknown }).text : (delta as { thinking?: unknown }).thinking;
          if (typeof text === 'string') emitter.emit('task.progress', io.event({ kind, text }));
        } catch {
          // A delta that cannot be read is not shown.
        }
      }
    : undefined;
  const request: ModelRequest = {
    model: spec.model,
    system: spec.system,
    messages: context.messages,
    // The grace turn sends the same tools as every turn before it, so the cached prefix (tools →
    // system → messages) still matches; its tool calls are not run (below) and its note says so.
    // A forked child shows its parent's tools (its registry still decides what runs).
    tools: spec.requestTools ?? (io.registry.specs as ToolSpec[]),
    maxTokens: host.maxTokens,
    ...(host.cacheLifetimeFor?.(spec) === '1h' ? { cacheLifetime: '1h' as const } : {}),
    ...(spec.effort ? { thinking: { budgetTokens: EFFORT_THINKING_BUDGET[spec.effort] } } : {}),
    taskId: spec.taskId,
    agent: spec.agent,
  };
  let raw: unknown;
  try {
    raw = await host.model.generate(request, signal, onDelta ? { onDelta } : undefined);
  } catch (error) {
    if (signal.aborted) return undefined;
    return { type: 'model.failed', at: host.clock.now(), turn, error: thrownByModel(error) };
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
  if (checked.textCut > 0)
    io.warn(
      'MODEL_TEXT_TRUNCATED',
      `The model's text in turn ${turn} was cut: ${checked.textCut.toLocaleString('en-US')} characters past the ${MAX_MODEL_TEXT_CHARS.toLocaleString('en-US')}-character limit of a block were not kept.`,
    );
  // A call a PreToolUse hook applies to is planned `hook`: the hook is asked just before it runs.
  const plan = uses.map((use) => planToolCall(io, use, seen, checked.refusedInputs));
  const event: SubagentEvent = { type: 'model.responded', at: host.clock.now(), turn, response, plan };
  if (!grace && uses.length === 0 && spec.outputSchema) {
    const text = textOf(response.content);
    // In a browser, a schema with a pattern may need its engine loaded here (a restored task's schema
    // may not have been compiled since the page loaded); where it is loaded, nothing waits.
    const check = patternEngineLoaded()
      ? host.checkOutput(spec, text)
      : await withPatternEngine(() => host.checkOutput(spec, text));
    if (signal.aborted) return undefined;
    if (check) event.outputCheck = check;
  }
  const stopHook = spec.depth < 1 ? host.hooks?.stop : host.hooks?.subagentStop;
  if (stopHook && !grace && uses.length === 0 && event.outputCheck?.ok !== false) {
    const { stopHookAnswer } = await loadHookRunner();
    const blocked = await stopHookAnswer(io, context, response, signal);
    if (signal.aborted) return undefined;
    if (blocked !== undefined) {
      event.stopBlocked = blocked;
      event.at = host.clock.now();
    }
  }
  return event;
}

const ERROR_BOUNDS = { maxDepth: 16, maxChars: 20_000 };

/**
 * What a model adapter threw, as a journaled error: plain JSON whatever it was (an error whose
 * details hold a BigInt or a cycle, an object with no prototype, a proxy whose traps throw).
 */
function thrownByModel(error: unknown): SerializedError {
  try {
    const serialized = toPlainJson(serializeError(error), 'error', ERROR_BOUNDS);
    const value = serialized.ok ? (serialized.value as Partial<SerializedError>) : undefined;
    if (
      value &&
      typeof value.name === 'string' &&
      typeof value.code === 'string' &&
      typeof value.message === 'string'
    )
      return value as SerializedError;
  } catch {
    // Falls through to a description of the value.
  }
  return {
    name: 'ModelError',
    code: 'MODEL_ERROR',
    message: `The model adapter failed: ${describeThrown(error)}`,
  };
}
