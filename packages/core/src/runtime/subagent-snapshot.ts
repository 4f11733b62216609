import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { SubagentMachine } from '../machines/subagent-machine.js';

/** A live subagent actor. */
export type SubagentRef = ActorRefFrom<SubagentMachine>;
/** A subagent actor's snapshot. */
export type SubagentSnapshot = SnapshotFrom<SubagentMachine>;

/** How a write/execute call is handled before it runs. */
export type ApprovalDisposition = 'run' | 'approval' | { deny: string };

/** The state a subagent snapshot is in, as one word. */
export function phaseOf(snapshot: SubagentSnapshot): string {
  const value = snapshot.value;
  return typeof value === 'string' ? value : (value.running as string);
}
