import { fromCallback } from 'xstate';
import type { SubagentEvent } from './subagent-events.js';

/** Input of the model effect: the turn it answers, and whether it is the grace turn (no tools run). */
export interface ModelEffectInput {
  turn: number;
  grace: boolean;
}

/** Input of the deadline effect: the absolute time (ms since epoch) at which `deadline.passed` is due. */
export interface DeadlineEffectInput {
  deadline: number;
}

/**
 * What the machine tells its deadline: it pauses while the task awaits approval, and moves when
 * the machine moves it (by the time spent awaiting approval; to the end of the grace turn).
 */
export type DeadlineCommand = { type: 'deadline.paused' } | { type: 'deadline.moved'; deadline: number };

/**
 * The effects a subagent's states invoke, as XState callback actors that send the machine its
 * events (`model.responded`, `tool.started`, `tool.finished`, `approval.granted`, …). These are
 * the pure machine's: they do nothing, so a journal fed through it reproduces the task with no
 * model, no tool and no timer. The runtime supplies the real ones with `machine.provide({ actors })`.
 */
export const pureEffects = {
  /** `thinking`, `grace`: one model call. */
  model: fromCallback<SubagentEvent, ModelEffectInput>(() => {}),
  /** `acting`: the next call of the plan (read calls after it may start with it). */
  tool: fromCallback<SubagentEvent>(() => {}),
  /** `awaitingApproval`: a decision on the next call. */
  approval: fromCallback<SubagentEvent>(() => {}),
  /** `running`: the deadline (paused while awaiting approval). */
  deadline: fromCallback<DeadlineCommand, DeadlineEffectInput>(() => {}),
};

/** The names of a subagent's effects. */
export type SubagentEffect = keyof typeof pureEffects;
