import type { TerminateReason } from '../persistence/types.js';

/** One member of a team as created: a name the others address it by, and the agent it runs. */
export interface TeamMemberConfig {
  /** The name teammates address it by (`SendMessage { to }`): lowercase letters, digits, hyphens. */
  name: string;
  /** The agent definition its spells run. */
  agent: string;
  /** Its spawn prompt: given with the team's introduction at its first spell. Without one it waits for a message. */
  prompt?: string;
  /** Its write and execute tools are refused until the lead approves its plan (`ExitPlanMode`). */
  planModeRequired?: boolean;
  /** Input + output tokens over all its spells. Default: no limit of its own (the team's applies). */
  tokenBudget?: number;
}

/** A team as stored in its task's spec (`input`): what restore and replay start from. */
export interface TeamConfig {
  /** A label shown in progress lines. */
  name: string;
  /** The lead's member name. */
  lead: string;
  /** The lead first, then the teammates. */
  members: TeamMemberConfig[];
  sessionKey: string;
  /** Messages the team may send in all (a broadcast counts once per recipient). */
  maxMessages: number;
  /** Input + output tokens of every spell of every member. */
  tokenBudget: number;
}

/** Where a task of the team's task list is. */
export type TeamTaskStatus = 'pending' | 'in_progress' | 'completed' | 'deleted';

/** One item of a team's shared task list (Claude Code's fields). */
export interface TeamTask {
  /** `1`, `2`, … in creation order. */
  id: string;
  subject: string;
  description: string;
  activeForm?: string;
  status: TeamTaskStatus;
  /** The member working on it (who claimed it, or was assigned it). */
  owner?: string;
  /** Tasks that must be completed before this one can be claimed. */
  blockedBy: string[];
  createdBy: string;
}

/** One message between members (or from the host), with its place in the team's order. */
export interface TeamMessage {
  /** `m1`, `m2`, … in the order the team accepted them. */
  id: string;
  from: string;
  to: string;
  text: string;
  summary?: string;
  at: number;
}

/** Why a team ended: a task's reasons, or its message limit. */
export type TeamTerminateReason = TerminateReason | 'MESSAGE_LIMIT';

/** What a team produced. `team.result` resolves to this; it never rejects for a team's failure. */
export interface TeamResult {
  teamId: string;
  status: 'completed' | 'failed' | 'cancelled';
  terminateReason: TeamTerminateReason;
  /** The lead's last final answer. */
  output: unknown;
  /** Why it stopped, when it did not end by itself. */
  message?: string;
  /** Every message, in the order the team accepted them. */
  messages: TeamMessage[];
  tasks: TeamTask[];
  /** Spells (working runs) per member, and their tokens. */
  members: { name: string; agent: string; spells: number; tokens: number }[];
  usage: { input: number; output: number; total: number };
}
