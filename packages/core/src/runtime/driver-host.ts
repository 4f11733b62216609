import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { Clock } from '../clock.js';
import type { ApprovalRequest } from '../events.js';
import type { OutputCheck } from '../machines/subagent-events.js';
import type { SubagentMachine } from '../machines/subagent-machine.js';
import type { ModelAdapter } from '../model/types.js';
import type { TaskResult, TaskSpec, TaskStore } from '../persistence/types.js';
import type { RuntimeEmitter } from './emitter.js';
import type { TaskDriver } from './task-driver.js';

/** A live subagent actor. */
export type SubagentRef = ActorRefFrom<SubagentMachine>;
/** A subagent actor's snapshot. */
export type SubagentSnapshot = SnapshotFrom<SubagentMachine>;

/** How a write/execute call is handled before it runs. */
export type ApprovalDisposition = 'run' | 'approval' | { deny: string };

/** What a driver needs from its runtime. */
export interface DriverHost {
  readonly clock: Clock;
  readonly model: ModelAdapter;
  readonly store: TaskStore;
  readonly emitter: RuntimeEmitter;
  readonly maxTokens: number;
  /** Policy decision when a response arrives (auto / deny / remembered "always"). */
  dispositionFor(spec: TaskSpec, tool: string): ApprovalDisposition;
  /** Asks the host (or the policy function); resolves through `driver.resolveApproval`. */
  requestApproval(driver: TaskDriver, request: ApprovalRequest): void;
  /** Reports a write/execute call the policy decided without asking (`approval.resolved`). */
  reportAutomaticDecision(request: ApprovalRequest, decision: 'approve' | 'deny', reason?: string): void;
  /** The pending approval was decided; the task carries on. */
  approvalResolved(driver: TaskDriver): void;
  /** Withdraws an outstanding approval request (task ended). */
  withdrawApproval(approvalId: string): void;
  checkOutput(spec: TaskSpec, text: string): OutputCheck | undefined;
  /** Called once, when the machine reaches a final state. */
  finished(driver: TaskDriver, result: TaskResult): void;
}

/** The state a subagent snapshot is in, as one word. */
export function phaseOf(snapshot: SubagentSnapshot): string {
  const value = snapshot.value;
  return typeof value === 'string' ? value : (value.running as string);
}
