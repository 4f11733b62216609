import { type AnyActorRef, fromCallback } from 'xstate';
import type { SubagentContext } from '../../machines/subagent-context.js';
import { nextCall } from '../../machines/subagent-context.js';
import type {
  DeadlineCommand,
  DeadlineEffectInput,
  ModelEffectInput,
  pureEffects,
} from '../../machines/subagent-effects.js';
import type { SubagentEvent } from '../../machines/subagent-events.js';
import { describeThrown } from '../../persistence/plain-json.js';
import { errorResult } from '../../tools/run-tool-call.js';
import { phaseOf, type SubagentSnapshot } from '../subagent-snapshot.js';
import { askApproval } from './approval.js';
import type { EffectRun } from './effect-run.js';
import { callModel } from './model-call.js';

/** Finds the run of the task whose actor is `actor` (undefined: no run drives it, nothing is done). */
export type RunLookup = (actor: AnyActorRef | undefined) => EffectRun | undefined;

/**
 * The subagent machine's effects as the runtime performs them: the same callback actors as
 * {@link pureEffects}, started and stopped by XState as their state is entered and left, each
 * doing its work with the module for it (`model-call.ts`, `tool-calls.ts`, `approval.ts`) and
 * sending back the event it ends with, journaled first. Leaving the state before that event
 * aborts the work through the task's AbortSignal (a cancel, a deadline); a read call that runs
 * ahead of its turn keeps running while the calls before it are answered.
 */
export function createEffectActors(runOf: RunLookup): typeof pureEffects {
  return {
    model: fromCallback<SubagentEvent, ModelEffectInput>(({ input, self, sendBack }) =>
      work(runOf(self._parent), self._parent, sendBack, (run, context, signal) =>
        callModel(run.io, context, input, signal).catch(
          (error: unknown): SubagentEvent => ({
            type: 'model.failed',
            at: run.io.host.clock.now(),
            turn: input.turn,
            error: {
              name: 'TroupeError',
              code: 'UNKNOWN',
              message: `The model call failed: ${describeThrown(error)}`,
            },
          }),
        ),
      ),
    ),
    tool: fromCallback<SubagentEvent>(({ self, sendBack }) =>
      work(runOf(self._parent), self._parent, sendBack, (run, context, signal, feed) => {
        const call = nextCall(context);
        if (!call || call.disposition === 'rejected') return Promise.resolve(undefined);
        return run.tools.run(context, call, signal, feed).catch(
          (error: unknown): SubagentEvent => ({
            type: 'tool.finished',
            at: run.io.host.clock.now(),
            toolUseId: call.toolUseId,
            result: errorResult(
              call.toolUseId,
              `Error: the ${call.name} call failed: ${describeThrown(error)}`,
            ),
          }),
        );
      }),
    ),
    approval: fromCallback<SubagentEvent>(({ self, sendBack }) =>
      work(runOf(self._parent), self._parent, sendBack, (run, context, signal) => {
        const call = nextCall(context);
        if (call?.disposition !== 'approval') return Promise.resolve(undefined);
        return askApproval(run.io, context, call, signal).catch(
          (error: unknown): SubagentEvent => ({
            type: 'approval.denied',
            at: run.io.host.clock.now(),
            toolUseId: call.toolUseId,
            reason: `the approval could not be decided: ${describeThrown(error)}`,
          }),
        );
      }),
    ),
    deadline: fromCallback<DeadlineCommand, DeadlineEffectInput>(({ input, self, sendBack, receive }) => {
      const run = runOf(self._parent);
      const machine = self._parent;
      if (!run || !machine) return undefined;
      const clock = run.io.host.clock;
      let timer: unknown;
      const clear = () => {
        if (timer !== undefined) clock.clearTimeout(timer);
        timer = undefined;
      };
      const arm = (deadline: number) => {
        clear();
        timer = clock.setTimeout(
          () => {
            timer = undefined;
            // Never recorded before the deadline, whatever the timer's accuracy.
            const event: SubagentEvent = { type: 'deadline.passed', at: Math.max(clock.now(), deadline) };
            if (run.journal(event)) sendBack(event);
          },
          Math.max(0, deadline - clock.now()),
        );
      };
      receive((command) => (command.type === 'deadline.moved' ? arm(command.deadline) : clear()));
      // A task restored while it awaits approval starts with its deadline paused.
      if (phaseOf(machine.getSnapshot() as SubagentSnapshot) !== 'awaitingApproval') arm(input.deadline);
      return clear;
    }),
  };
}

type Feed = (event: SubagentEvent) => boolean;

/**
 * One effect's work: started once the task's tool sources are ready (an MCP server starting), from
 * the machine's context as it then is; its event is journaled and sent back unless the effect was
 * stopped meanwhile. Returns the actor's cleanup: stopped before its event, it aborts the work.
 * An effect never throws across the actor boundary: `perform` resolves with its kind's failure.
 */
function work(
  run: EffectRun | undefined,
  machine: AnyActorRef | undefined,
  sendBack: (event: SubagentEvent) => void,
  perform: (
    run: EffectRun,
    context: SubagentContext,
    signal: AbortSignal,
    feed: Feed,
  ) => Promise<SubagentEvent | undefined>,
): (() => void) | undefined {
  if (!run || !machine) return undefined;
  const signal = run.signal;
  let answered = false;
  const feed: Feed = (event) => {
    if (signal.aborted || !run.journal(event)) return false;
    sendBack(event);
    return true;
  };
  const deliver = (event: SubagentEvent | undefined) => {
    if (!event || answered || signal.aborted) return;
    // Answered before it is sent: the transition it causes stops this actor, and must not abort.
    answered = true;
    if (feed(event) && event.type === 'model.responded') run.turnEnded();
  };
  const start = () => {
    if (signal.aborted) return;
    const context = machine.getSnapshot().context as SubagentContext;
    perform(run, context, signal, feed)
      .then(deliver)
      .catch((error: unknown) =>
        run.io.warn(
          'EFFECT_FAILED',
          `Task ${run.io.spec.taskId}: the event ending an effect could not be recorded: ${describeThrown(error)}`,
        ),
      );
  };
  const ready = run.io.registry.ready?.();
  // The sources warn about their own failures; the task goes on with the tools it has.
  if (ready) void ready.then(start, start);
  else start();
  return () => {
    if (!answered) run.abortEffects();
  };
}
