import { and, assign, not, sendTo, setup } from 'xstate';
import { stopHookMessage } from '../hooks/stop-feedback.js';
import { addUsage, textOf } from '../model/content.js';
import type { Message, ModelResponse } from '../model/types.js';
import { splitUsage } from '../usage/usage-by-model.js';
import {
  lastAssistantText,
  messagesForGrace,
  NO_STEP,
  nextCall,
  type SubagentContext,
  type SubagentInput,
  type SubagentOutput,
  statusOf,
  steeringBlocks,
  tokens,
} from './subagent-context.js';
import { pureEffects } from './subagent-effects.js';
import type { SubagentEvent } from './subagent-events.js';

export {
  type GraceReason,
  type SubagentContext,
  type SubagentInput,
  type SubagentOutput,
  statusOf,
  type TaskOutcome,
  type TurnStep,
} from './subagent-context.js';

/** What every model response changes: the time, the turn count, usage, the model id, the conversation. */
function afterResponse(context: SubagentContext, at: number, response: ModelResponse) {
  const before = context.modelUsed ?? context.task.model;
  const usageByModel = splitUsage(
    context.usageByModel,
    before,
    context.usage,
    response.model ?? before,
    response.usage,
  );
  return {
    now: at,
    turns: context.turns + 1,
    usage: addUsage(context.usage, response.usage),
    modelUsed: response.model ?? context.modelUsed,
    messages: [...context.messages, { role: 'assistant' as const, content: response.content }],
    ...(usageByModel && { usageByModel }),
  };
}

type Event<T extends SubagentEvent['type']> = Extract<SubagentEvent, { type: T }>;

/** `messages` with `texts` added to the last user message (a new one when the last is not the user's). */
function addToLastUserMessage(messages: Message[], texts: readonly string[]): Message[] {
  const copy = messages.slice();
  const last = copy[copy.length - 1];
  const blocks = texts.map((text) => ({ type: 'text' as const, text }));
  if (last?.role === 'user') {
    const content =
      typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
    copy[copy.length - 1] = { role: 'user', content: [...content, ...blocks] };
  } else copy.push({ role: 'user', content: blocks });
  return copy;
}

/**
 * One sub-agent task as a state machine. Its states declare their effects as invoked actors, started
 * and stopped by XState as a state is entered and left: the model call (`thinking`, `grace`), the
 * next tool call (`acting`), the approval (`awaitingApproval`) and the deadline (not while awaiting
 * approval). They send back events that carry their time; the machine never reads a clock. Its own
 * effects do nothing ({@link pureEffects}), so a task's journal of events replays to exactly the
 * same state; the runtime provides the real ones (`subagentMachine.provide({ actors })`).
 *
 * pending ─START→ running(thinking ⇄ acting ⇄ awaitingApproval, grace) → completed | failed | cancelled
 * Turn-boundary guards (token budget, turns, deadline) run when the last tool call of a turn is answered.
 */
export const subagentMachine = setup({
  types: {
    context: {} as SubagentContext,
    events: {} as SubagentEvent,
    input: {} as SubagentInput,
    output: {} as SubagentOutput,
  },
  actors: pureEffects,
  guards: {
    isCurrentTurn: ({ context, event }) => (event as Event<'model.responded'>).turn === context.turns + 1,
    hasToolCalls: ({ event }) => (event as Event<'model.responded'>).plan.length > 0,
    outputRejectedWithTurnsLeft: ({ context, event }) => {
      const check = (event as Event<'model.responded'>).outputCheck;
      return check !== undefined && !check.ok && context.turns + 1 < context.task.limits.maxTurns;
    },
    outputRejected: ({ event }) => {
      const check = (event as Event<'model.responded'>).outputCheck;
      return check !== undefined && !check.ok;
    },
    allCallsAnswered: ({ context }) => context.step.results.length >= context.step.plan.length,
    nextCallRejected: ({ context }) => nextCall(context)?.disposition === 'rejected',
    nextCallNeedsApproval: ({ context }) => {
      const call = nextCall(context);
      return call?.disposition === 'approval' && !context.step.approved.includes(call.toolUseId);
    },
    finishesTurnWithinLimits: ({ context, event }) => {
      const { step } = context;
      const { toolUseId, at } = event as Event<'tool.finished'>;
      const limits = context.task.limits;
      return (
        step.results.length + 1 === step.plan.length &&
        step.plan[step.results.length]!.toolUseId === toolUseId &&
        tokens(context.usage) <= limits.tokenBudget &&
        context.turns < limits.maxTurns &&
        at < context.deadline
      );
    },
    answersWaitingHooks: ({ context, event }) =>
      (event as Event<'tool.hooked'>).plan.every((call) =>
        context.step.plan.some((entry) => entry.toolUseId === call.toolUseId && entry.disposition === 'hook'),
      ),
    isNextCall: ({ context, event }) =>
      nextCall(context)?.toolUseId === (event as Event<'tool.finished'>).toolUseId,
    isPendingApproval: ({ context, event }) =>
      nextCall(context)?.toolUseId === (event as Event<'approval.granted'>).toolUseId,
    overTokenBudget: ({ context }) => tokens(context.usage) > context.task.limits.tokenBudget,
    outOfTurns: ({ context }) => context.turns >= context.task.limits.maxTurns,
    stopBlockedWithTurnsLeft: ({ context, event }) =>
      (event as Event<'model.responded'>).stopBlocked !== undefined &&
      context.turns + 1 < context.task.limits.maxTurns,
    steeredWithTurnsLeft: ({ context }) =>
      (context.steering?.length ?? 0) > 0 && context.turns + 1 < context.task.limits.maxTurns,
    pastDeadline: ({ context }) => context.now >= context.deadline,
    deadlineReached: ({ context, event }) => (event as Event<'deadline.passed'>).at >= context.deadline,
  },
  actions: {
    start: assign(({ context, event }) => {
      const { at, deadline, context: texts } = event as Event<'task.started'>;
      if (!texts?.length) return { startedAt: at, now: at, deadline };
      return { startedAt: at, now: at, deadline, messages: addToLastUserMessage(context.messages, texts) };
    }),
    continueAfterStopHook: assign(({ context, event }) => ({
      messages: [...context.messages, stopHookMessage((event as Event<'model.responded'>).stopBlocked ?? '')],
    })),
    recordResponse: assign(({ context, event }) => {
      const { at, response, plan } = event as Event<'model.responded'>;
      // Per-turn path: extend the fresh object rather than spreading it.
      return Object.assign(afterResponse(context, at, response), {
        step: plan.length ? { plan, results: [], approved: [], inFlight: [] } : NO_STEP,
        toolCalls: context.toolCalls + plan.length,
      });
    }),
    askToFixOutput: assign(({ context, event }) => {
      const check = (event as Event<'model.responded'>).outputCheck;
      const message = check && !check.ok ? check.message : '';
      return {
        messages: [
          ...context.messages,
          {
            role: 'user' as const,
            content: `Your final answer does not match the required output format: ${message}\nReply again with only the corrected answer.`,
          },
        ],
      };
    }),
    finishWithGoal: assign(({ context, event }) => {
      const { at, outputCheck } = event as Event<'model.responded'>;
      const text = lastAssistantText(context.messages);
      return {
        end: {
          endedAt: at,
          terminateReason: 'GOAL' as const,
          output: outputCheck?.ok ? outputCheck.value : text,
        },
      };
    }),
    finishWithBadOutput: assign(({ context, event }) => {
      const { at, outputCheck } = event as Event<'model.responded'>;
      return {
        end: {
          endedAt: at,
          terminateReason: 'ERROR' as const,
          output: lastAssistantText(context.messages),
          error: {
            name: 'ValidationError',
            code: 'OUTPUT_SCHEMA_FAILED',
            message: `The final answer did not match the output schema: ${outputCheck && !outputCheck.ok ? outputCheck.message : ''}`,
          },
        },
      };
    }),
    finishWithModelError: assign(({ context, event }) => {
      const { at, error } = event as Event<'model.failed'>;
      return {
        now: at,
        end: {
          endedAt: at,
          terminateReason: context.graceReason ?? ('ERROR' as const),
          output: lastAssistantText(context.messages),
          error,
        },
      };
    }),
    recordHookAnswers: assign(({ context, event }) => {
      const { at, plan } = event as Event<'tool.hooked'>;
      const answers = new Map(plan.map((call) => [call.toolUseId, call]));
      return {
        now: at,
        step: {
          ...context.step,
          plan: context.step.plan.map((call) =>
            call.disposition === 'hook' ? (answers.get(call.toolUseId) ?? call) : call,
          ),
        },
      };
    }),
    answerRejectedCall: assign(({ context }) => {
      const call = nextCall(context);
      if (call?.disposition !== 'rejected') return {};
      return { step: { ...context.step, results: [...context.step.results, call.result] } };
    }),
    enterApproval: assign(({ context }) => ({ approvalSince: context.now })),
    pauseDeadline: sendTo('deadline', { type: 'deadline.paused' }),
    moveDeadline: sendTo('deadline', ({ context }) => ({
      type: 'deadline.moved',
      deadline: context.deadline,
    })),
    approve: assign(({ context, event }) => {
      const { at, toolUseId } = event as Event<'approval.granted'>;
      return {
        now: at,
        deadline: context.deadline + Math.max(0, at - context.approvalSince),
        step: { ...context.step, approved: [...context.step.approved, toolUseId] },
      };
    }),
    deny: assign(({ context, event }) => {
      const { at, toolUseId, reason } = event as Event<'approval.denied'>;
      const call = nextCall(context);
      const name = call?.name ?? 'tool';
      return {
        now: at,
        deadline: context.deadline + Math.max(0, at - context.approvalSince),
        step: {
          ...context.step,
          results: [
            ...context.step.results,
            {
              type: 'tool_result' as const,
              tool_use_id: toolUseId,
              content: `The user denied permission to run ${name}${reason ? `: ${reason}` : '.'} Do not retry the same call; continue without it or explain what you need.`,
              is_error: true,
            },
          ],
        },
      };
    }),
    toolStarted: assign(({ context, event }) => {
      const { at, toolUseId } = event as Event<'tool.started'>;
      return { now: at, step: { ...context.step, inFlight: [...context.step.inFlight, toolUseId] } };
    }),
    toolFinished: assign(({ context, event }) => {
      const { at, toolUseId, result } = event as Event<'tool.finished'>;
      const { step } = context;
      return {
        now: at,
        step: {
          plan: step.plan,
          results: [...step.results, result],
          approved: step.approved,
          inFlight: step.inFlight.length ? step.inFlight.filter((id) => id !== toolUseId) : step.inFlight,
        },
      };
    }),
    finishTurn: assign(({ context, event }) => {
      const { at, result } = event as Event<'tool.finished'>;
      return {
        now: at,
        messages: [
          ...context.messages,
          { role: 'user' as const, content: [...context.step.results, result, ...steeringBlocks(context)] },
        ],
        step: NO_STEP,
        ...(context.steering?.length ? { steering: [] } : {}),
      };
    }),
    sendResults: assign(({ context }) => ({
      messages: [
        ...context.messages,
        { role: 'user' as const, content: [...context.step.results, ...steeringBlocks(context)] },
      ],
      step: NO_STEP,
      ...(context.steering?.length ? { steering: [] } : {}),
    })),
    queueSteering: assign(({ context, event }) => {
      const { at, text } = event as Event<'task.steered'>;
      return { now: at, steering: [...(context.steering ?? []), text] };
    }),
    deliverSteering: assign(({ context }) => ({
      messages: [...context.messages, { role: 'user' as const, content: steeringBlocks(context) }],
      steering: [],
    })),
    steerBeforeStart: assign(({ context, event }) => {
      const { text } = event as Event<'task.steered'>;
      return {
        messages: addToLastUserMessage(context.messages, [`Message from the user while you work: ${text}`]),
      };
    }),
    failWithTokenLimit: assign(({ context }) => ({
      end: {
        endedAt: context.now,
        terminateReason: 'TOKEN_LIMIT' as const,
        output: lastAssistantText(context.messages),
        error: {
          name: 'LimitError',
          code: 'LIMIT_EXCEEDED',
          message: `Token budget exceeded: used ${tokens(context.usage)} of ${context.task.limits.tokenBudget} tokens (input+output).`,
        },
      },
    })),
    enterGraceForTurns: assign(({ context }) => ({
      graceReason: 'MAX_TURNS' as const,
      messages: messagesForGrace(context, 'MAX_TURNS'),
      deadline: Math.min(context.deadline, context.now + context.task.graceMs),
      step: NO_STEP,
    })),
    enterGraceForTime: assign(({ context, event }) => {
      const at = (event as { at?: number }).at ?? context.now;
      return {
        now: at,
        graceReason: 'TIMEOUT' as const,
        messages: messagesForGrace(context, 'TIMEOUT'),
        deadline: at + context.task.graceMs,
        step: NO_STEP,
      };
    }),
    finishGrace: assign(({ context, event }) => {
      const { at, response } = event as Event<'model.responded'>;
      const text = textOf(response.content);
      const reason = context.graceReason ?? 'MAX_TURNS';
      return {
        ...afterResponse(context, at, response),
        end: {
          endedAt: at,
          terminateReason: reason,
          output: text || lastAssistantText(context.messages),
          error: {
            name: 'LimitError',
            code: 'LIMIT_EXCEEDED',
            message:
              reason === 'MAX_TURNS'
                ? `Turn limit reached (${context.task.limits.maxTurns} turns); the output is the agent's best answer after a final turn without tools.`
                : `Time limit reached (${context.task.limits.timeoutMs} ms); the output is the agent's best answer after a final turn without tools.`,
          },
        },
      };
    }),
    failGraceTimeout: assign(({ context, event }) => {
      const { at } = event as Event<'deadline.passed'>;
      return {
        now: at,
        end: {
          endedAt: at,
          terminateReason: context.graceReason ?? ('TIMEOUT' as const),
          output: lastAssistantText(context.messages),
          error: {
            name: 'LimitError',
            code: 'LIMIT_EXCEEDED',
            message: 'Time limit reached, and the final turn without tools did not answer in time.',
          },
        },
      };
    }),
    cancel: assign(({ context, event }) => {
      // `hook.stopped`: a hook's `continue: false` ends the task as a cancel does, with its own code.
      const { at, reason, type } = event as Event<'cancel.requested' | 'hook.stopped'>;
      return {
        now: at,
        end: {
          endedAt: at,
          terminateReason: 'ABORTED' as const,
          output: lastAssistantText(context.messages),
          error: {
            name: 'TroupeError',
            code: type === 'hook.stopped' ? 'HOOK_STOPPED' : 'ABORTED',
            message: reason ?? 'The task was cancelled.',
          },
        },
      };
    }),
  },
}).createMachine({
  id: 'subagent',
  context: ({ input }) => {
    const { messages, ...task } = input;
    return {
      task,
      messages,
      turns: 0,
      toolCalls: 0,
      usage: { input: 0, output: 0 },
      modelUsed: undefined,
      startedAt: 0,
      deadline: 0,
      now: 0,
      approvalSince: 0,
      step: NO_STEP,
      graceReason: undefined,
      end: undefined,
    };
  },
  initial: 'pending',
  output: ({ context }) => {
    const end = context.end;
    const output: SubagentOutput = {
      status: statusOf(end?.terminateReason),
      terminateReason: end?.terminateReason ?? 'ERROR',
      output: end?.output,
      turns: context.turns,
      toolCalls: context.toolCalls,
      usage: context.usage,
      model: context.modelUsed ?? context.task.model,
      startedAt: context.startedAt,
      endedAt: end?.endedAt ?? context.now,
    };
    if (context.usageByModel) output.usageByModel = context.usageByModel;
    if (end?.error) output.error = end.error;
    return output;
  },
  states: {
    pending: {
      on: {
        'task.started': { target: 'running', actions: 'start' },
        'cancel.requested': { target: 'cancelled', actions: 'cancel' },
        'hook.stopped': { target: 'cancelled', actions: 'cancel' },
        'task.steered': { actions: 'steerBeforeStart' },
      },
    },
    running: {
      initial: 'thinking',
      // One deadline for the run: absolute, paused while awaiting approval, moved by the machine.
      invoke: { id: 'deadline', src: 'deadline', input: ({ context }) => ({ deadline: context.deadline }) },
      on: {
        'cancel.requested': { target: 'cancelled', actions: 'cancel' },
        'hook.stopped': { target: 'cancelled', actions: 'cancel' },
        'task.steered': { actions: 'queueSteering' },
      },
      states: {
        thinking: {
          invoke: {
            id: 'model',
            src: 'model',
            input: ({ context }) => ({ turn: context.turns + 1, grace: false }),
          },
          on: {
            'model.responded': [
              { guard: not('isCurrentTurn') },
              { guard: 'hasToolCalls', target: 'acting', actions: 'recordResponse' },
              {
                guard: 'steeredWithTurnsLeft',
                target: 'thinking',
                reenter: true,
                actions: ['recordResponse', 'deliverSteering'],
              },
              {
                guard: 'stopBlockedWithTurnsLeft',
                target: 'thinking',
                reenter: true,
                actions: ['recordResponse', 'continueAfterStopHook'],
              },
              {
                guard: 'outputRejectedWithTurnsLeft',
                target: 'thinking',
                reenter: true,
                actions: ['recordResponse', 'askToFixOutput'],
              },
              {
                guard: 'outputRejected',
                target: '#subagent.failed',
                actions: ['recordResponse', 'finishWithBadOutput'],
              },
              { target: '#subagent.completed', actions: ['recordResponse', 'finishWithGoal'] },
            ],
            'model.failed': {
              guard: 'isCurrentTurn',
              target: '#subagent.failed',
              actions: 'finishWithModelError',
            },
            'deadline.passed': { guard: 'deadlineReached', target: 'grace', actions: 'enterGraceForTime' },
          },
        },
        acting: {
          // The tool effect runs the plan's next call: each answered call re-enters `acting`, which
          // starts the effect for the call after it.
          invoke: { id: 'tool', src: 'tool' },
          always: [
            {
              guard: and(['allCallsAnswered', 'overTokenBudget']),
              target: '#subagent.failed',
              actions: ['sendResults', 'failWithTokenLimit'],
            },
            {
              guard: and(['allCallsAnswered', 'outOfTurns']),
              target: 'grace',
              actions: 'enterGraceForTurns',
            },
            {
              guard: and(['allCallsAnswered', 'pastDeadline']),
              target: 'grace',
              actions: 'enterGraceForTime',
            },
            { guard: 'allCallsAnswered', target: 'thinking', actions: 'sendResults' },
            { guard: 'nextCallRejected', actions: 'answerRejectedCall' },
            { guard: 'nextCallNeedsApproval', target: 'awaitingApproval' },
          ],
          on: {
            'tool.started': { actions: 'toolStarted' },
            // `PreToolUse` hooks answered: re-entering plans the calls anew (run, ask, or answer a refusal).
            'tool.hooked': {
              guard: 'answersWaitingHooks',
              target: 'acting',
              reenter: true,
              actions: 'recordHookAnswers',
            },
            'tool.finished': [
              // The common case, the last call of a turn within every limit, is one microstep.
              { guard: 'finishesTurnWithinLimits', target: 'thinking', actions: 'finishTurn' },
              { guard: 'isNextCall', target: 'acting', reenter: true, actions: 'toolFinished' },
            ],
            'deadline.passed': { guard: 'deadlineReached', target: 'grace', actions: 'enterGraceForTime' },
          },
        },
        awaitingApproval: {
          entry: ['enterApproval', 'pauseDeadline'],
          invoke: { id: 'approval', src: 'approval' },
          on: {
            'approval.granted': {
              guard: 'isPendingApproval',
              target: 'acting',
              actions: ['approve', 'moveDeadline'],
            },
            'approval.denied': {
              guard: 'isPendingApproval',
              target: 'acting',
              actions: ['deny', 'moveDeadline'],
            },
          },
        },
        grace: {
          entry: 'moveDeadline',
          invoke: {
            id: 'model',
            src: 'model',
            input: ({ context }) => ({ turn: context.turns + 1, grace: true }),
          },
          on: {
            'model.responded': {
              guard: 'isCurrentTurn',
              target: '#subagent.failed',
              actions: 'finishGrace',
            },
            'model.failed': {
              guard: 'isCurrentTurn',
              target: '#subagent.failed',
              actions: 'finishWithModelError',
            },
            'deadline.passed': {
              guard: 'deadlineReached',
              target: '#subagent.failed',
              actions: 'failGraceTimeout',
            },
          },
        },
      },
    },
    completed: { type: 'final' },
    failed: { type: 'final' },
    cancelled: { type: 'final' },
  },
});

/** The subagent machine's logic type. */
export type SubagentMachine = typeof subagentMachine;
