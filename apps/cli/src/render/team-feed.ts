import type { RuntimeEvents, TaskClient, TaskEventBase, TeamState } from '@troupe/core';
import { formatTokens } from '@troupe/core';
import type { Colors } from './colors.js';
import { toolSummary } from './task-line.js';
import { memberLines, messageLine, type SpellProgress, teamSummary, teamTag } from './team-view.js';
import { truncate, visibleWidth } from './text.js';

/** Options of {@link TeamFeed}. */
export interface TeamFeedOptions {
  colors: Colors;
  /** Prints a line above the live region (or just prints it). */
  log: (line: string) => void;
  /** Asks for a redraw of the live lines (TTY). */
  refresh?: () => void;
  /** Columns of a printed line (the terminal's width; lines longer than it are cut). */
  width: () => number;
  /** Only teams of this session are shown (default: all). */
  sessionKey?: string;
}

/**
 * Shows agent teams as they work, from the runtime's `team.event` events: a line when a team
 * starts (its members), each message between members (`[auth-review] team-lead → alice: where is
 * login`) as the team accepts it, each change of its task list, and how it ended. While teams
 * work, {@link liveLines} is a block per team: its summary and one line per member (idle or
 * working, tokens, the tool its spell runs).
 */
export class TeamFeed {
  private readonly teams = new Map<string, TeamState>();
  /** Messages already printed, per team. */
  private readonly printed = new Map<string, number>();
  /** Running spells (task ids) and their progress. */
  private readonly spells = new Map<string, SpellProgress>();

  constructor(private readonly options: TeamFeedOptions) {}

  /** Subscribes to a runtime's events; returns the function that unsubscribes. */
  attach(runtime: Pick<TaskClient, 'on'>): () => void {
    const progress = (event: TaskEventBase, tool?: string) => this.onSpellProgress(event, tool);
    const offs = [
      runtime.on('team.event', (event) => this.onTeamEvent(event)),
      runtime.on('task.progress', (event) => progress(event)),
      runtime.on('tool.started', (event) => progress(event, toolSummary(event.tool, event.input))),
      runtime.on('tool.finished', (event) => progress(event)),
    ];
    return () => {
      for (const off of offs) off();
    };
  }

  /** The teams seen, newest last. */
  list(): TeamState[] {
    return [...this.teams.values()];
  }

  /** True for a running spell of a team this feed shows (its member line stands for its task line). */
  isSpell(taskId: string): boolean {
    return this.spells.has(taskId);
  }

  /** True while a team seen has not ended. */
  get busy(): boolean {
    return [...this.teams.values()].some((state) => !state.ended);
  }

  /** What a running spell did so far. */
  progressOf(taskId: string): SpellProgress | undefined {
    return this.spells.get(taskId);
  }

  /** The live region's lines: for each team at work, its summary and its members. */
  liveLines(width = 200): string[] {
    const { colors } = this.options;
    const lines: string[] = [];
    for (const state of this.teams.values()) {
      if (state.ended) continue;
      lines.push(truncate(`${colors.magenta('team')} ${teamSummary(state, colors)}`, width));
      lines.push(...memberLines(state, colors, width, (taskId) => this.spells.get(taskId)));
    }
    return lines;
  }

  private onTeamEvent({ teamId, sessionKey, event, state }: RuntimeEvents['team.event']): void {
    if (this.options.sessionKey !== undefined && sessionKey !== this.options.sessionKey) return;
    const { colors } = this.options;
    const width = Math.max(40, this.options.width());
    const tag = teamTag(state, colors);
    const log = (text: string) => this.options.log(truncate(`${tag} ${text}`, width));
    if (!this.teams.has(teamId)) {
      const members = state.config.members.map((member) => `${member.name} (${member.agent})`).join(', ');
      log(`team started: ${members} ${colors.dim(`· ${teamId}`)}`);
    }
    this.teams.set(teamId, state);
    // Messages (a broadcast is one per recipient; plan requests and answers are messages too).
    const from = this.printed.get(teamId) ?? 0;
    for (const message of state.messages.slice(from))
      log(messageLine(message, colors, width - visibleWidth(tag) - 1));
    this.printed.set(teamId, state.messages.length);
    switch (event.type) {
      case 'team.spell.started':
        this.spells.set(event.taskId, { tokens: 0 });
        break;
      case 'team.spell.ended':
        this.spells.delete(event.taskId);
        break;
      case 'team.task.created':
        log(colors.dim(`task #${event.task.id} added: ${event.task.subject}`));
        break;
      case 'team.task.updated': {
        const task = event.task;
        log(
          colors.dim(
            `task #${task.id} ${task.status}${task.owner ? `, owner ${task.owner}` : ''}${task.blockedBy.length ? `, blocked by ${task.blockedBy.map((id) => `#${id}`).join(',')}` : ''}: ${task.subject}`,
          ),
        );
        break;
      }
      case 'team.ended': {
        const tokens = state.usage.input + state.usage.output;
        const how =
          event.status === 'completed'
            ? colors.green('completed')
            : event.status === 'cancelled'
              ? colors.yellow('cancelled')
              : colors.red(`failed (${event.terminateReason})`);
        log(
          `team ${how}: ${state.messages.length} messages, ${formatTokens(tokens)} tokens${event.message && event.status !== 'completed' ? ` · ${event.message}` : ''}`,
        );
        break;
      }
    }
    this.options.refresh?.();
  }

  private onSpellProgress(event: TaskEventBase, tool: string | undefined): void {
    const spell = this.spells.get(event.taskId);
    if (!spell) return;
    spell.tokens = event.tokens;
    if (tool) spell.lastTool = tool;
    this.options.refresh?.();
  }
}
