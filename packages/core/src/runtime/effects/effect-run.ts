import type { SubagentEvent } from '../../machines/subagent-events.js';
import type { EffectIO } from './effect-io.js';
import type { ToolCalls } from './tool-calls.js';

/** What a subagent's effect actors need of their task's run. */
export interface EffectRun {
  readonly io: EffectIO;
  /** The task's tool calls (read calls of a turn run ahead together). */
  readonly tools: ToolCalls;
  /** The signal of the effects in flight: aborted when a state that wanted one is left early. */
  readonly signal: AbortSignal;
  /** Journals `event` before it is sent; false when the run takes no more events (ended, detached). */
  journal(event: SubagentEvent): boolean;
  /** Aborts the effects in flight (a cancel, a deadline, the end of the task). */
  abortEffects(): void;
  /** A model call was answered: a `task.progress` turn for whoever listens. */
  turnEnded(): void;
}
