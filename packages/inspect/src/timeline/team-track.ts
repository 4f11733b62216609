import type { TeamConfig, TeamEvent, TeamState, TeamTask } from '@troupe/core';
import { applyTeamEvent, initialTeamState } from '@troupe/core/internal';
import type { Timeline } from './types.js';

/** One working spell of a member: a task of its agent, from its start to its end. */
export interface TeamSpell {
  member: string;
  /** The spell's task id (`<team id>-<member>-<n>`): its actor's `context.task.taskId`. */
  taskId: string;
  /** 1 for the member's first spell. */
  n: number;
  startedAt: number;
  /** Absent while it has not ended in the timeline. */
  endedAt?: number;
  status?: 'completed' | 'failed' | 'cancelled';
  terminateReason?: string;
  /** The record it started at (a position in `timeline.records`). */
  startRecord: number;
  endRecord?: number;
}

/** How a message came to be: sent to one member, one of a broadcast, a plan request or its answer. */
export type TeamMessageKind = 'message' | 'broadcast' | 'plan-request' | 'plan-answer';

/** One message as an arrow: from its sender's lane when sent to its receiver's when delivered. */
export interface TeamArrow {
  /** `m1`, `m2`, … (the team's own ids: what `<teammate-message id>` carries). */
  id: string;
  /** A member, or `host` (a message from the host: `team.send`). */
  from: string;
  to: string;
  text: string;
  summary?: string;
  kind: TeamMessageKind;
  /** The ids the same event sent (a broadcast: one per recipient, in order). */
  group: string[];
  sentAt: number;
  /** The record it was sent at. */
  sentRecord: number;
  /** When it reached its receiver: the spell it woke, or the spell it was steered into. */
  deliveredAt?: number;
  deliveredRecord?: number;
  /** The spell it was delivered to. */
  spell?: string;
  /** `woke`: it started the receiver's spell; `steered`: it went into the spell running. */
  delivery?: 'woke' | 'steered';
}

/** One team event in its place in the timeline, and the team's state after it. */
export interface TeamChange {
  recordIndex: number;
  at: number;
  event: TeamEvent;
  state: TeamState;
}

/** One member of a team as the team view draws it: a lane. */
export interface TeamLaneMember {
  name: string;
  agent: string;
  lead: boolean;
  planModeRequired: boolean;
}

/** An agent team in a timeline: its members (lanes), their spells, its messages, every change. */
export interface TeamTrack {
  teamId: string;
  name: string;
  lead: string;
  /** The lead first, then the teammates, as the team was created. */
  members: TeamLaneMember[];
  /** The first and the last team event's time. */
  start: number;
  end: number;
  spells: TeamSpell[];
  /** Every message in the team's order (`m1` first). */
  messages: TeamArrow[];
  /** Every team event with the state after it, in timeline order. */
  changes: TeamChange[];
  /** The team's state before its first event. */
  initial: TeamState;
}

/**
 * The agent teams of a timeline, from its `troupe.team` records: each member's spells, each message
 * with when it was sent and delivered (and to which spell), and the team's state after every event
 * (folded by core's `applyTeamEvent`, the fold restore and replay use). A team whose first record
 * (with its config) is missing is left out. Pure: the web inspector and tests use it alike.
 */
export function teamTracks(timeline: Timeline): TeamTrack[] {
  const builders = new Map<string, Builder>();
  timeline.records.forEach((record, recordIndex) => {
    if (record.type !== 'troupe.team') return;
    let builder = builders.get(record.teamId);
    if (!builder) {
      if (!record.config) return;
      builder = new Builder(record.teamId, record.config);
      builders.set(record.teamId, builder);
    }
    builder.add(record.event, recordIndex);
  });
  return [...builders.values()].map((builder) => builder.track);
}

/** The team's state as it stood at a record: after every team event at or before `recordIndex`. */
export function teamStateAt(track: TeamTrack, recordIndex: number): TeamState {
  let state = track.initial;
  for (const change of track.changes) {
    if (change.recordIndex > recordIndex) break;
    state = change.state;
  }
  return state;
}

/** A team's task list as a board: one column per status, each in task order (deleted tasks left out). */
export interface TeamBoard {
  pending: TeamTask[];
  in_progress: TeamTask[];
  completed: TeamTask[];
}

/** The board of a team's task list in `state`. */
export function teamBoard(state: TeamState): TeamBoard {
  const board: TeamBoard = { pending: [], in_progress: [], completed: [] };
  for (const task of state.tasks) if (task.status !== 'deleted') board[task.status].push(task);
  return board;
}

class Builder {
  readonly track: TeamTrack;
  private state: TeamState;
  private readonly spells = new Map<string, TeamSpell>();
  private readonly arrows = new Map<string, TeamArrow>();

  constructor(teamId: string, config: TeamConfig) {
    this.state = initialTeamState(teamId, config);
    this.track = {
      teamId,
      name: config.name,
      lead: config.lead,
      members: config.members.map((member) => ({
        name: member.name,
        agent: member.agent,
        lead: member.name === config.lead,
        planModeRequired: member.planModeRequired === true,
      })),
      start: Number.POSITIVE_INFINITY,
      end: Number.NEGATIVE_INFINITY,
      spells: [],
      messages: [],
      changes: [],
      initial: this.state,
    };
  }

  add(event: TeamEvent, recordIndex: number): void {
    const before = this.state.messages.length;
    this.state = applyTeamEvent(this.state, event);
    const track = this.track;
    track.start = Math.min(track.start, event.at);
    track.end = Math.max(track.end, event.at);
    track.changes.push({ recordIndex, at: event.at, event, state: this.state });
    const added = this.state.messages.slice(before);
    const group = added.map((message) => message.id);
    for (const message of added) {
      const arrow: TeamArrow = {
        id: message.id,
        from: message.from,
        to: message.to,
        text: message.text,
        kind: kindOf(event, added.length),
        group,
        sentAt: message.at,
        sentRecord: recordIndex,
      };
      if (message.summary !== undefined) arrow.summary = message.summary;
      this.arrows.set(message.id, arrow);
      track.messages.push(arrow);
    }
    switch (event.type) {
      case 'team.spell.started': {
        const spell: TeamSpell = {
          member: event.member,
          taskId: event.taskId,
          n: this.state.members[event.member]?.spells ?? track.spells.length + 1,
          startedAt: event.at,
          startRecord: recordIndex,
        };
        this.spells.set(event.taskId, spell);
        track.spells.push(spell);
        this.deliver(event.messageIds, event.taskId, event.at, recordIndex, 'woke');
        return;
      }
      case 'team.delivered':
        this.deliver(event.messageIds, event.taskId, event.at, recordIndex, 'steered');
        return;
      case 'team.spell.ended': {
        const spell = this.spells.get(event.taskId);
        if (spell) {
          spell.endedAt = event.at;
          spell.endRecord = recordIndex;
          spell.status = event.status;
          spell.terminateReason = event.terminateReason;
        }
        // Steered into a spell that ended first: back in the mailbox, delivered again later.
        for (const id of event.returned ?? []) {
          const arrow = this.arrows.get(id);
          if (!arrow) continue;
          delete arrow.deliveredAt;
          delete arrow.deliveredRecord;
          delete arrow.spell;
          delete arrow.delivery;
        }
        return;
      }
      default:
        return;
    }
  }

  private deliver(
    ids: readonly string[],
    spell: string,
    at: number,
    recordIndex: number,
    delivery: 'woke' | 'steered',
  ): void {
    for (const id of ids) {
      const arrow = this.arrows.get(id);
      if (!arrow) continue;
      arrow.deliveredAt = at;
      arrow.deliveredRecord = recordIndex;
      arrow.spell = spell;
      arrow.delivery = delivery;
    }
  }
}

function kindOf(event: TeamEvent, count: number): TeamMessageKind {
  if (event.type === 'team.plan.requested') return 'plan-request';
  if (event.type === 'team.plan.answered') return 'plan-answer';
  return count > 1 ? 'broadcast' : 'message';
}
