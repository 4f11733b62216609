import type { TaskResult } from '../persistence/types.js';
import type { TeamTask, TeamTerminateReason } from './team-types.js';

/**
 * The events of a team's journal, in the order the team took them: the one record of its mailbox,
 * task list, plan approvals and spells. Folded by `applyTeamEvent`; a state-changing tool call's
 * event carries its `key` (`<spell id>:<tool_use id>`) and the `answer` the agent got, so a call run
 * again after a restore gets the same answer and changes nothing.
 */
export type TeamEvent =
  | {
      type: 'team.message';
      at: number;
      from: string;
      /** One member, or several for a broadcast (one message each, in this order). */
      to: string[];
      text: string;
      summary?: string;
      key?: string;
      answer?: string;
    }
  | {
      /** Waiting messages were steered into a working member's spell. */
      type: 'team.delivered';
      at: number;
      member: string;
      taskId: string;
      messageIds: string[];
    }
  | {
      /** A member woke: a spell (task) started with its waiting messages. */
      type: 'team.spell.started';
      at: number;
      member: string;
      taskId: string;
      messageIds: string[];
    }
  | {
      type: 'team.spell.ended';
      at: number;
      member: string;
      taskId: string;
      status: TaskResult['status'];
      terminateReason: TaskResult['terminateReason'];
      usage: { input: number; output: number };
      output?: unknown;
      /** Messages steered into the spell that it never saw (it ended first): waiting again. */
      returned?: string[];
    }
  | { type: 'team.task.created'; at: number; task: TeamTask; key?: string; answer?: string }
  | {
      type: 'team.task.updated';
      at: number;
      /** The task as it is after the update. */
      task: TeamTask;
      /** Other tasks that now wait for this one (`addBlocks`): their new `blockedBy`. */
      blocked?: { id: string; blockedBy: string[] }[];
      key?: string;
      answer?: string;
    }
  | { type: 'team.plan.requested'; at: number; member: string; plan: string; key?: string; answer?: string }
  | {
      type: 'team.plan.answered';
      at: number;
      from: string;
      requestId: string;
      approve: boolean;
      feedback?: string;
      key?: string;
      answer?: string;
    }
  | {
      type: 'team.ended';
      at: number;
      status: 'completed' | 'failed' | 'cancelled';
      terminateReason: TeamTerminateReason;
      message?: string;
    };

/** The type names of {@link TeamEvent}. */
export type TeamEventType = TeamEvent['type'];
