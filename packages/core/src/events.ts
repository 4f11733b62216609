import type { PermissionMode } from './definitions/types.js';
import type { TaskResult } from './persistence/types.js';
import type { TeamEvent } from './teams/team-events.js';
import type { TeamState } from './teams/team-state.js';
import type { ToolAccess } from './tools/define-tool.js';

/** Fields every task event carries: enough to render `[explore] Find auth code ... 5 tools, 3.2s`. */
export interface TaskEventBase {
  taskId: string;
  agent: string;
  sessionKey: string;
  description: string;
  /** Time of the event, ms since epoch. */
  at: number;
  /** Tool calls made so far. */
  toolCalls: number;
  /** Model turns so far. */
  turns: number;
  /** Time since the task started (0 while queued). */
  elapsedMs: number;
  /** Input + output tokens so far. */
  tokens: number;
  /** Nesting depth (1 = started by a main agent). */
  depth: number;
  parentTaskId?: string;
}

/** An approval the host must decide: `runtime.approve(id)` or `runtime.deny(id, reason)`. */
export interface ApprovalRequest {
  /** Approval id (unique per runtime). */
  id: string;
  taskId: string;
  agent: string;
  sessionKey: string;
  description: string;
  tool: string;
  access: ToolAccess;
  toolUseId: string;
  input: unknown;
  /** The task runs in the background (its approval still waits for the host). */
  background: boolean;
  /** The task's permission mode, when it is not `default` (see the README, "Permission modes"). */
  permissionMode?: PermissionMode;
  requestedAt: number;
}

/** Every event the runtime emits, by name. */
export interface RuntimeEvents {
  'task.queued': TaskEventBase & { position: number };
  'task.started': TaskEventBase;
  'task.progress': TaskEventBase &
    ({ kind: 'text'; text: string } | { kind: 'thinking'; text: string } | { kind: 'turn' });
  'tool.started': TaskEventBase & { toolUseId: string; tool: string; input: unknown };
  'tool.finished': TaskEventBase & {
    toolUseId: string;
    tool: string;
    isError: boolean;
    durationMs: number;
  };
  'approval.requested': ApprovalRequest;
  'approval.resolved': ApprovalRequest & {
    decision: 'approve' | 'deny';
    reason?: string;
    /**
     * Who decided: the host, the policy, a remembered "always allow", or a `PreToolUse` hook that
     * allowed a call the host would have been asked about.
     */
    by: 'host' | 'policy' | 'always' | 'hook';
  };
  'task.completed': TaskEventBase & { result: TaskResult };
  'task.failed': TaskEventBase & { result: TaskResult };
  'task.cancelled': TaskEventBase & { result: TaskResult };
  'task.announced': TaskEventBase & { result: TaskResult; message: string };
  /**
   * A team journaled an event (a message, a spell started or ended, a task-list change, its end),
   * with the team's state after it: what a view of the team (the CLI, an inspector) follows live.
   */
  'team.event': { teamId: string; sessionKey: string; event: TeamEvent; state: TeamState };
  'store.error': { error: Error };
  /**
   * Something untrusted (a model, a policy function, a store) returned a value the runtime could
   * not use as it was, and the runtime carried on safely (estimated usage, a denial, ...).
   */
  'runtime.warning': RuntimeWarning;
}

/** A `runtime.warning` event: a stable code, a message for people, and the task concerned. */
export interface RuntimeWarning {
  code:
    | 'USAGE_ESTIMATED'
    | 'APPROVAL_POLICY_INVALID'
    | 'TOOL_INPUT_TOO_LARGE'
    | 'DUPLICATE_TOOL_USE_ID'
    | 'TASK_RESTARTED'
    | 'PERSISTENCE_CORRUPT'
    | 'PERSISTENCE_FAILED'
    | 'TOOL_SOURCE_FAILED'
    | 'TOOL_INPUT_NOT_JSON'
    | 'MODEL_TEXT_TRUNCATED'
    | 'LISTENER_FAILED'
    | 'EFFECT_FAILED'
    | 'HOOK_FAILED'
    | 'HOOK_MESSAGE'
    | 'SKILL_NOT_FOUND'
    | 'MEMORY_FAILED'
    | 'WORKSPACE_FAILED'
    | 'PERMISSION_MODE_CHANGED';
  message: string;
  taskId?: string;
}

/** Name of a runtime event. */
export type RuntimeEventName = keyof RuntimeEvents;
