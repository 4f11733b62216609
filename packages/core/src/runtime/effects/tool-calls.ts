import { loadHookRunner } from '../../hooks/load-hook-runner.js';
import type { HookedResult } from '../../hooks/tool-hooks.js';
import type { SubagentEvent, ToolCallPlan } from '../../machines/subagent-events.js';
import type { SubagentContext } from '../../machines/subagent-machine.js';
import type { ToolResultBlock, ToolUseBlock } from '../../model/types.js';
import { describeThrown } from '../../persistence/plain-json.js';
import { checkToolCall, errorResult, executeToolCall } from '../../tools/run-tool-call.js';
import type { EffectIO } from './effect-io.js';
import { findUse } from './find-use.js';

/** A call of the plan that is not answered by a refusal. */
export type PlannedCall = Exclude<ToolCallPlan, { disposition: 'rejected' }>;
type RunnableCall = Extract<ToolCallPlan, { disposition: 'run' | 'approval' }>;

/**
 * The tool effect (`acting`) of one task: runs the next call of the plan and resolves with its
 * `tool.finished`. Read calls that need no approval start together, the next one and every read
 * call after it in the turn (several `task` calls in one reply run in parallel); their results
 * still enter the machine in call order. A write or execute call runs alone, after its
 * `tool.started` is durably journaled, so a crash never runs it twice. A call whose `PreToolUse`
 * hook has not answered yet (and the read calls that would run with it) is first put to the hook:
 * the effect then ends with `tool.hooked` (or `hook.stopped`), and the machine plans it anew.
 */
export class ToolCalls {
  /** Read calls of the current turn already running, by tool_use id. */
  private readonly running = new Map<string, Promise<HookedResult>>();

  constructor(private readonly io: EffectIO) {}

  /** Forgets the read calls started (their effect was aborted with the turn). */
  reset(): void {
    this.running.clear();
  }

  /**
   * Runs `call`. `feed` journals and sends an intermediate event (the durable `tool.started` of a
   * write call) and returns false when the effect is no longer wanted. Undefined once aborted.
   */
  async run(
    context: SubagentContext,
    call: PlannedCall,
    signal: AbortSignal,
    feed: (event: SubagentEvent) => boolean,
  ): Promise<SubagentEvent | undefined> {
    if (call.disposition === 'hook' || context.step.plan.some((entry) => entry.disposition === 'hook')) {
      const { answerPreToolUse, preToolUseDue } = await loadHookRunner();
      const due = preToolUseDue(context);
      if (due.length) return answerPreToolUse(this.io, context, due, signal);
    }
    if (call.disposition === 'hook') return undefined;
    const host = this.io.host;
    const toolUseId = call.toolUseId;
    const finished = ({ result, stop }: HookedResult): SubagentEvent =>
      stop
        ? { type: 'hook.stopped', at: host.clock.now(), reason: stop }
        : { type: 'tool.finished', at: host.clock.now(), toolUseId, result };
    const use = usedInput(findUse(context, toolUseId), call);
    if (!use) return finished({ result: errorResult(toolUseId, 'Error: tool call not found.') });
    if (call.access !== 'read' && context.step.inFlight.includes(toolUseId))
      // Started before a crash and never finished: never run a write/execute tool twice.
      return finished({
        result: errorResult(
          toolUseId,
          `Error: the ${call.name} call was interrupted (the runtime stopped while it was running); its outcome is unknown. Check the current state before trying again.`,
        ),
      });
    if (call.disposition === 'run' && call.access === 'read') {
      this.startReadCalls(context, signal);
      const pending = this.running.get(toolUseId);
      if (pending) {
        const result = await pending;
        this.running.delete(toolUseId);
        return signal.aborted ? undefined : finished(result);
      }
    }
    const checked = this.validInput(use);
    if (!checked.ok) return finished({ result: checked.result });
    if (call.access !== 'read') {
      if (!feed({ type: 'tool.started', at: host.clock.now(), toolUseId })) return undefined;
      try {
        await host.store.flush();
      } catch (error) {
        if (signal.aborted) return undefined;
        return finished({
          result: errorResult(
            toolUseId,
            `Error: not run, the task store could not record it: ${describeThrown(error)}`,
          ),
        });
      }
      if (signal.aborted) return undefined;
    }
    const result = await this.invoke(use, checked.input, signal, call);
    return signal.aborted ? undefined : finished(result);
  }

  /** Starts every read call from the next one on that needs no approval and is not running. */
  private startReadCalls(context: SubagentContext, signal: AbortSignal): void {
    const { plan, results } = context.step;
    for (let index = results.length; index < plan.length; index++) {
      const call = plan[index]!;
      if (call.disposition !== 'run' || call.access !== 'read') break;
      if (this.running.has(call.toolUseId)) continue;
      const use = usedInput(findUse(context, call.toolUseId), call);
      if (!use) break;
      const checked = this.validInput(use);
      this.running.set(
        call.toolUseId,
        checked.ok
          ? this.invoke(use, checked.input, signal, call)
          : Promise.resolve({ result: checked.result }),
      );
    }
  }

  /** The input validated when the response arrived, or, after a restore, checked again. */
  private validInput(
    use: ToolUseBlock,
  ): { ok: true; input: unknown } | { ok: false; result: ToolResultBlock } {
    const inputs = this.io.inputs;
    if (inputs.has(use.id)) {
      const input = inputs.get(use.id);
      inputs.delete(use.id);
      return { ok: true, input };
    }
    return checkToolCall(this.io.registry, use);
  }

  /**
   * Runs one tool call (and its `PostToolUse` or `PostToolUseFailure` hook), emitting `tool.started`
   * and `tool.finished`; a `PreToolUse` hook's context for the model follows the result.
   */
  private invoke(
    use: ToolUseBlock,
    input: unknown,
    signal: AbortSignal,
    call: RunnableCall,
  ): Promise<HookedResult> {
    const { host, spec } = this.io;
    const emitter = host.emitter;
    const started = host.clock.now();
    if (emitter.listening('tool.started'))
      emitter.emit('tool.started', this.io.event({ toolUseId: use.id, tool: use.name, input: use.input }));
    const context = {
      signal,
      taskId: spec.taskId,
      agent: spec.agent,
      toolUseId: use.id,
      sessionKey: spec.sessionKey,
    };
    const hooks = this.io.host.hooks;
    const executed = executeToolCall(this.io.registry, use, input, context);
    const hooked: Promise<HookedResult> =
      hooks?.postToolUse || hooks?.postToolUseFailure
        ? executed.then((result) =>
            signal.aborted
              ? { result }
              : loadHookRunner().then(({ withPostToolUse }) => withPostToolUse(this.io, use, result, signal)),
          )
        : executed.then((result) => ({ result }));
    const added = call.context;
    const withContext = added
      ? hooked.then(async (outcome) => {
          const { withTexts } = await loadHookRunner();
          return { ...outcome, result: withTexts(outcome.result, [`PreToolUse hook context: ${added}`]) };
        })
      : hooked;
    return withContext.then((outcome) => {
      const result = outcome.result;
      if (!signal.aborted && emitter.listening('tool.finished'))
        emitter.emit(
          'tool.finished',
          this.io.event({
            toolUseId: use.id,
            tool: use.name,
            isError: result.is_error === true,
            durationMs: host.clock.now() - started,
          }),
        );
      return outcome.stop ? { result, stop: outcome.stop } : { result };
    });
  }
}

/** The call's `tool_use` block with the input it runs with (a `PreToolUse` hook's, when it gave one). */
function usedInput(use: ToolUseBlock | undefined, call: ToolCallPlan): ToolUseBlock | undefined {
  if (!use || !('input' in call) || call.input === undefined) return use;
  return { ...use, input: call.input };
}
