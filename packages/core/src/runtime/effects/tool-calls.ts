import { withPostToolUse } from '../../hooks/tool-hooks.js';
import type { SubagentEvent, ToolCallPlan } from '../../machines/subagent-events.js';
import type { SubagentContext } from '../../machines/subagent-machine.js';
import type { ToolResultBlock, ToolUseBlock } from '../../model/types.js';
import { describeThrown } from '../../persistence/plain-json.js';
import { checkToolCall, errorResult, executeToolCall } from '../../tools/run-tool-call.js';
import type { EffectIO } from './effect-io.js';
import { findUse } from './find-use.js';

type RunnableCall = Extract<ToolCallPlan, { disposition: 'run' | 'approval' }>;

/**
 * The tool effect (`acting`) of one task: runs the next call of the plan and resolves with its
 * `tool.finished`. Read calls that need no approval start together, the next one and every read
 * call after it in the turn (several `task` calls in one reply run in parallel); their results
 * still enter the machine in call order. A write or execute call runs alone, after its
 * `tool.started` is durably journaled, so a crash never runs it twice.
 */
export class ToolCalls {
  /** Read calls of the current turn already running, by tool_use id. */
  private readonly running = new Map<string, Promise<ToolResultBlock>>();

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
    call: RunnableCall,
    signal: AbortSignal,
    feed: (event: SubagentEvent) => boolean,
  ): Promise<SubagentEvent | undefined> {
    const host = this.io.host;
    const toolUseId = call.toolUseId;
    const finished = (result: ToolResultBlock): SubagentEvent => ({
      type: 'tool.finished',
      at: host.clock.now(),
      toolUseId,
      result,
    });
    const use = findUse(context, toolUseId);
    if (!use) return finished(errorResult(toolUseId, 'Error: tool call not found.'));
    if (call.access !== 'read' && context.step.inFlight.includes(toolUseId))
      // Started before a crash and never finished: never run a write/execute tool twice.
      return finished(
        errorResult(
          toolUseId,
          `Error: the ${call.name} call was interrupted (the runtime stopped while it was running); its outcome is unknown. Check the current state before trying again.`,
        ),
      );
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
    if (!checked.ok) return finished(checked.result);
    if (call.access !== 'read') {
      if (!feed({ type: 'tool.started', at: host.clock.now(), toolUseId })) return undefined;
      try {
        await host.store.flush();
      } catch (error) {
        if (signal.aborted) return undefined;
        return finished(
          errorResult(
            toolUseId,
            `Error: not run, the task store could not record it: ${describeThrown(error)}`,
          ),
        );
      }
      if (signal.aborted) return undefined;
    }
    const result = await this.invoke(use, checked.input, signal);
    return signal.aborted ? undefined : finished(result);
  }

  /** Starts every read call from the next one on that needs no approval and is not running. */
  private startReadCalls(context: SubagentContext, signal: AbortSignal): void {
    const { plan, results } = context.step;
    for (let index = results.length; index < plan.length; index++) {
      const call = plan[index]!;
      if (call.disposition !== 'run' || call.access !== 'read') break;
      if (this.running.has(call.toolUseId)) continue;
      const use = findUse(context, call.toolUseId);
      if (!use) break;
      const checked = this.validInput(use);
      this.running.set(
        call.toolUseId,
        checked.ok ? this.invoke(use, checked.input, signal) : Promise.resolve(checked.result),
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

  /** Runs one tool call (and the `PostToolUse` hook), emitting `tool.started` and `tool.finished`. */
  private invoke(use: ToolUseBlock, input: unknown, signal: AbortSignal): Promise<ToolResultBlock> {
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
    const hooked = this.io.host.hooks?.postToolUse
      ? executeToolCall(this.io.registry, use, input, context).then((result) =>
          signal.aborted ? result : withPostToolUse(this.io, use, result, signal),
        )
      : executeToolCall(this.io.registry, use, input, context);
    return hooked.then((result) => {
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
      return result;
    });
  }
}
