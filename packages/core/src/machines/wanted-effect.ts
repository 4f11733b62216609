import type { SnapshotFrom } from 'xstate';
import { nextCall } from './subagent-context.js';
import type { ToolCallPlan } from './subagent-events.js';
import type { SubagentMachine } from './subagent-machine.js';

type Snapshot = SnapshotFrom<SubagentMachine>;

/**
 * The effect a subagent's state asks for. `key` names one occurrence: while a snapshot's key stays
 * the same the effect in flight is still wanted; when it changes (a new turn, the next call, a
 * cancel, a deadline) the one in flight is aborted and the new one, if any, starts.
 */
export type WantedEffect =
  /** `thinking` or `grace`: call the model for `turn` (with no tools in the grace turn). */
  | { kind: 'model'; key: string; turn: number; grace: boolean }
  /** `acting`: run the next call of the plan. */
  | { kind: 'tool'; key: string; call: Extract<ToolCallPlan, { disposition: 'run' | 'approval' }> }
  /** `awaitingApproval`: ask for a decision on the next call. */
  | { kind: 'approval'; key: string; call: Extract<ToolCallPlan, { disposition: 'approval' }> };

/**
 * What a subagent snapshot wants done, read from its state and context alone: the subagent machine
 * declares its effects, the runtime's driver performs them. Undefined when it waits for nothing
 * (not started, ended, or a call the plan rejected, which the machine answers itself).
 */
export function wantedEffect(snapshot: Snapshot): WantedEffect | undefined {
  if (snapshot.status !== 'active') return undefined;
  const value = snapshot.value;
  if (typeof value === 'string') return undefined;
  const context = snapshot.context;
  switch (value.running) {
    case 'thinking':
    case 'grace': {
      const turn = context.turns + 1;
      return { kind: 'model', key: `${value.running}:${turn}`, turn, grace: value.running === 'grace' };
    }
    case 'acting': {
      const call = nextCall(context);
      if (!call || call.disposition === 'rejected') return undefined;
      return { kind: 'tool', key: `tool:${call.toolUseId}`, call };
    }
    case 'awaitingApproval': {
      const call = nextCall(context);
      if (call?.disposition !== 'approval') return undefined;
      return { kind: 'approval', key: `approval:${call.toolUseId}`, call };
    }
    default:
      return undefined;
  }
}

/**
 * The deadline a timer must be armed for, or undefined when none runs: before the task starts,
 * after it ends, and while it awaits an approval (that time does not count; the machine extends
 * the deadline by it when the decision arrives).
 */
export function armedDeadline(snapshot: Snapshot): number | undefined {
  if (snapshot.status !== 'active') return undefined;
  const value = snapshot.value;
  if (typeof value === 'string' || value.running === 'awaitingApproval') return undefined;
  return snapshot.context.deadline;
}
