import type { TerminateReason } from '../persistence/types.js';
import type { TeamEvent } from './team-events.js';
import type { TeamConfig, TeamMessage, TeamTask, TeamTerminateReason } from './team-types.js';

/** One member as the team's journal tells it: idle or working (a spell running), and its mailbox. */
export interface MemberState {
  name: string;
  agent: string;
  status: 'idle' | 'working';
  /** The spell running now (a task id). */
  spell?: string;
  /** Spells started so far. */
  spells: number;
  /** The last spell that ended: its conversation is where the next one starts. */
  lastSpell?: string;
  /** Ids of messages waiting for it, oldest first. */
  inbox: string[];
  /** Ids of the messages the running spell started with. */
  started: string[];
  /** Ids of messages steered into the running spell (checked against its conversation when it ends). */
  steered: string[];
  /** Input + output tokens of its ended spells. */
  tokens: number;
  planApproved: boolean;
}

/** A plan approval request (`ExitPlanMode`) and its answer. */
export interface PlanRequest {
  member: string;
  approve?: boolean;
}

/** A team's state: the fold of its journal. A value: every event makes a new one. */
export interface TeamState {
  teamId: string;
  config: TeamConfig;
  members: Readonly<Record<string, MemberState>>;
  /** Every message, `m1` first. */
  messages: readonly TeamMessage[];
  /** The task list, `1` first (deleted tasks keep their place). */
  tasks: readonly TeamTask[];
  plans: Readonly<Record<string, PlanRequest>>;
  /** What each state-changing tool call answered, by `<spell id>:<tool_use id>`. */
  answers: Readonly<Record<string, string>>;
  usage: { input: number; output: number };
  /** The lead's last final answer. */
  leadOutput?: unknown;
  /** How the lead's last spell ended (a team whose lead failed last does not end `completed`). */
  leadEnd?: { status: 'completed' | 'failed' | 'cancelled'; terminateReason: TerminateReason };
  ended?: {
    status: 'completed' | 'failed' | 'cancelled';
    terminateReason: TeamTerminateReason;
    message?: string;
  };
}

/** A team's state before its first event. */
export function initialTeamState(teamId: string, config: TeamConfig): TeamState {
  const members: Record<string, MemberState> = {};
  for (const member of config.members)
    members[member.name] = {
      name: member.name,
      agent: member.agent,
      status: 'idle',
      spells: 0,
      inbox: [],
      started: [],
      steered: [],
      tokens: 0,
      planApproved: member.planModeRequired !== true,
    };
  return {
    teamId,
    config,
    members,
    messages: [],
    tasks: [],
    plans: {},
    answers: {},
    usage: { input: 0, output: 0 },
  };
}

/** The text a plan approval request is delivered to the lead as. */
export function planRequestText(requestId: string, plan: string): string {
  return `plan_approval_request (request_id: ${requestId}). Approve or reject it with SendMessage { to: <this teammate>, message: { type: "plan_approval_response", request_id: "${requestId}", approve: true | false, feedback? } }.\n\n${plan}`;
}

/** The text a plan approval answer is delivered to the teammate as. */
export function planAnswerText(requestId: string, approve: boolean, feedback: string | undefined): string {
  const verdict = approve
    ? 'approved: you may now use your write and execute tools'
    : 'rejected: revise your plan and call ExitPlanMode again';
  return `plan_approval_response (request_id: ${requestId}): ${verdict}.${feedback ? `\n\n${feedback}` : ''}`;
}

/** The state after `event`. Pure: replay and restore fold the journal with it. */
export function applyTeamEvent(state: TeamState, event: TeamEvent): TeamState {
  const next = withAnswer(state, event);
  switch (event.type) {
    case 'team.message': {
      let result = next;
      for (const to of event.to)
        result = addMessage(result, {
          from: event.from,
          to,
          text: event.text,
          at: event.at,
          ...(event.summary !== undefined ? { summary: event.summary } : {}),
        });
      return result;
    }
    case 'team.delivered':
      return updateMember(next, event.member, (member) => ({
        ...member,
        inbox: member.inbox.filter((id) => !event.messageIds.includes(id)),
        steered: [...member.steered, ...event.messageIds],
      }));
    case 'team.spell.started':
      return updateMember(next, event.member, (member) => ({
        ...member,
        status: 'working',
        spell: event.taskId,
        spells: member.spells + 1,
        inbox: member.inbox.filter((id) => !event.messageIds.includes(id)),
        started: event.messageIds,
        steered: [],
      }));
    case 'team.spell.ended': {
      const tokens = event.usage.input + event.usage.output;
      const ended = updateMember(next, event.member, (member) => {
        const { spell: _spell, ...rest } = member;
        return {
          ...rest,
          status: 'idle',
          lastSpell: event.taskId,
          inbox: [...(event.returned ?? []), ...member.inbox],
          started: [],
          steered: [],
          tokens: member.tokens + tokens,
        };
      });
      const usage = {
        input: next.usage.input + event.usage.input,
        output: next.usage.output + event.usage.output,
      };
      if (event.member !== state.config.lead) return { ...ended, usage };
      const leadEnd = { status: event.status, terminateReason: event.terminateReason };
      return event.output !== undefined
        ? { ...ended, usage, leadEnd, leadOutput: event.output }
        : { ...ended, usage, leadEnd };
    }
    case 'team.task.created':
      return { ...next, tasks: [...next.tasks, event.task] };
    case 'team.task.updated': {
      const changed = new Map<string, TeamTask>([[event.task.id, event.task]]);
      for (const blocked of event.blocked ?? []) {
        const task = next.tasks.find((candidate) => candidate.id === blocked.id);
        if (task) changed.set(task.id, { ...task, blockedBy: blocked.blockedBy });
      }
      return { ...next, tasks: next.tasks.map((task) => changed.get(task.id) ?? task) };
    }
    case 'team.plan.requested': {
      const requestId = `p${Object.keys(next.plans).length + 1}`;
      const planned = { ...next, plans: { ...next.plans, [requestId]: { member: event.member } } };
      return addMessage(planned, {
        from: event.member,
        to: state.config.lead,
        text: planRequestText(requestId, event.plan),
        at: event.at,
        summary: `plan approval request ${requestId}`,
      });
    }
    case 'team.plan.answered': {
      const request = next.plans[event.requestId];
      if (!request) return next;
      const answered = updateMember(
        { ...next, plans: { ...next.plans, [event.requestId]: { ...request, approve: event.approve } } },
        request.member,
        (member) => ({ ...member, planApproved: event.approve }),
      );
      return addMessage(answered, {
        from: event.from,
        to: request.member,
        text: planAnswerText(event.requestId, event.approve, event.feedback),
        at: event.at,
        summary: `plan ${event.approve ? 'approved' : 'rejected'}`,
      });
    }
    case 'team.ended':
      return {
        ...next,
        ended: {
          status: event.status,
          terminateReason: event.terminateReason,
          ...(event.message !== undefined ? { message: event.message } : {}),
        },
      };
  }
}

/** The members with a spell running: their task ids. */
export function runningSpells(state: TeamState): string[] {
  const spells: string[] = [];
  for (const member of Object.values(state.members)) if (member.spell) spells.push(member.spell);
  return spells;
}

function withAnswer(state: TeamState, event: TeamEvent): TeamState {
  if (!('key' in event) || event.key === undefined || event.answer === undefined) return state;
  return { ...state, answers: { ...state.answers, [event.key]: event.answer } };
}

function addMessage(state: TeamState, message: Omit<TeamMessage, 'id'>): TeamState {
  const id = `m${state.messages.length + 1}`;
  const added = { ...state, messages: [...state.messages, { id, ...message }] };
  return updateMember(added, message.to, (member) => ({ ...member, inbox: [...member.inbox, id] }));
}

function updateMember(
  state: TeamState,
  name: string,
  update: (member: MemberState) => MemberState,
): TeamState {
  const member = state.members[name];
  if (!member) return state;
  return { ...state, members: { ...state.members, [name]: update(member) } };
}
