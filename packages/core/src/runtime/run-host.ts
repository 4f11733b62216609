import type { Clock } from '../clock.js';
import type { ApprovalRequest } from '../events.js';
import type { RuntimeHooks } from '../hooks/hook-points.js';
import type { StartContext } from '../hooks/start-hooks.js';
import type { OutputCheck } from '../machines/subagent-events.js';
import type { ModelAdapter } from '../model/types.js';
import type { TaskResult, TaskSpec, TaskStore } from '../persistence/types.js';
import type { ToolAccess } from '../tools/define-tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { RuntimeEmitter } from './emitter.js';
import type { ApprovalDisposition } from './subagent-snapshot.js';

/** A decision on an approval request. */
export interface ApprovalAnswer {
  decision: 'approve' | 'deny';
  reason?: string;
}

/** What a task's run and its effects need from the runtime. */
export interface RunHost {
  readonly clock: Clock;
  readonly model: ModelAdapter;
  readonly store: TaskStore;
  readonly emitter: RuntimeEmitter;
  readonly maxTokens: number;
  /** The host's hooks (`createRuntime({ hooks })`), if any. */
  readonly hooks?: RuntimeHooks;
  /**
   * Text given to a task with its prompt when it starts (its agent memory, `SubagentStart` hooks, a
   * main agent's `UserPromptSubmit` hooks), journaled with `task.started`, or a hook's word that it
   * must not start (journaled as `hook.stopped`). Undefined: the task starts at once with none.
   */
  startContext?(spec: TaskSpec, signal: AbortSignal): Promise<StartContext>;
  /**
   * What a task's agent is given (`TaskTooling`, its one owner): its run asks it for its tools
   * (`registryFor`) at their first use, and closes its own workspace as it ends (`closeWorkspace`).
   * A main agent's run brings the registry its session planned.
   */
  readonly tooling: {
    registryFor(spec: TaskSpec): ToolRegistry;
    closeWorkspace(spec: TaskSpec, result: TaskResult): Promise<TaskResult>;
  };
  /** Policy decision when a response arrives (auto / deny / remembered "always"). */
  dispositionFor(spec: TaskSpec, tool: string, access: ToolAccess): ApprovalDisposition;
  /**
   * Asks the policy or the host. Resolves with the decision; never settles once `signal` aborts
   * (the task left `awaitingApproval`: cancelled, ended), and the request is then withdrawn.
   */
  requestApproval(
    request: ApprovalRequest,
    signal: AbortSignal,
    options?: { hookAllowed?: boolean },
  ): Promise<ApprovalAnswer>;
  /** Reports a write/execute call the policy decided without asking (`approval.resolved`). */
  reportAutomaticDecision(request: ApprovalRequest, decision: 'approve' | 'deny', reason?: string): void;
  checkOutput(spec: TaskSpec, text: string): OutputCheck | undefined;
  /**
   * The prompt-cache lifetime a task's next request asks for: `1h` when its conversation will wait
   * longer than 5 minutes for its next request (a main agent whose session has background work
   * running: its announcement comes when that work ends). Undefined: the adapter's default (5 min).
   */
  cacheLifetimeFor?(spec: TaskSpec): '5m' | '1h' | undefined;
}
