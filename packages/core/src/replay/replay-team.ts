import { TroupeError } from '../errors.js';
import type { Message } from '../model/types.js';
import type { StoredTask, TaskResult, TaskStore } from '../persistence/types.js';
import { deliveredIds, idsInText } from '../teams/mailbox.js';
import { teamConfigOf, teamEventsOf, teamResultOf, teamTaskResult } from '../teams/team-documents.js';
import type { TeamEvent } from '../teams/team-events.js';
import { applyTeamEvent, initialTeamState, type TeamState } from '../teams/team-state.js';
import type { TeamResult } from '../teams/team-types.js';
import { firstDifference } from './first-difference.js';
import { type ReplayOutcome, replayTask } from './replay-task.js';

/** One spell of a replayed team: its member and its own replay. */
export interface TeamSpellReplay {
  taskId: string;
  member: string;
  outcome: ReplayOutcome;
}

/** The outcome of {@link replayTeam}. */
export interface TeamReplayOutcome {
  /** The team's state folded from its journal. */
  state: TeamState;
  /** The team events of its journal, in order (the message interleaving). */
  events: TeamEvent[];
  /** The team's result, when the journal reaches its end. */
  result: TeamResult | undefined;
  /** The team task's stored result, if it ended. */
  recorded: TaskResult | undefined;
  /** Every spell, in the order the team started them, each replayed from its own journal. */
  spells: TeamSpellReplay[];
  /**
   * True when the fold reproduces the stored result, every spell replays exactly, and every spell
   * received exactly the messages the team's journal says it delivered, in that order.
   */
  matches: boolean;
  /** What differed, one line each. */
  differences: string[];
}

/**
 * Replays a stored team: its journal of team events is folded again (the mailbox, the task list,
 * the plan approvals, the spells), every member's spell is replayed from its own journal
 * (`replayTask`), and the message interleaving is checked: the messages each spell was started
 * with and steered, in order, must be the ones the team journaled for it. No model, no tool.
 * Throws `TASK_NOT_FOUND` for an id that is not a stored team.
 */
export async function replayTeam(store: TaskStore, teamId: string): Promise<TeamReplayOutcome> {
  const { state, events, recorded } = await readTeam(store, teamId);
  const differences: string[] = [];
  const result = state.ended ? teamResultOf(state) : undefined;
  if (recorded && result) {
    const replayed = teamTaskResult(result, recorded.durationMs);
    const difference = firstDifference(recorded, replayed);
    if (difference)
      differences.push(
        `the team's result differs at ${difference.text}: stored ${JSON.stringify(difference.recorded)}, replayed ${JSON.stringify(difference.replayed)}`,
      );
  } else if (recorded && !result)
    differences.push('the team ended in the store, but its journal does not reach its end');
  const spells: TeamSpellReplay[] = [];
  for (const event of events) {
    if (event.type !== 'team.spell.started') continue;
    const spell = await store.getTask(event.taskId);
    if (!spell) {
      differences.push(`spell ${event.taskId} of ${event.member} is not in the store`);
      continue;
    }
    const outcome = await replayTask(store, event.taskId);
    spells.push({ taskId: event.taskId, member: event.member, outcome });
    if (!outcome.matches)
      differences.push(`spell ${event.taskId} of ${event.member}: ${outcome.differences.join('; ')}`);
    const first = spell.spec.messages.at(-1);
    const received = [
      ...(first ? deliveredIds([first as Message]) : []),
      ...outcome.steps.flatMap((step) =>
        step.event.type === 'task.steered' ? idsInText(step.event.text) : [],
      ),
    ];
    // A message steered as the spell ended never reached it: the team took it back (`returned`).
    const returned = new Set(
      events.flatMap((other) =>
        other.type === 'team.spell.ended' && other.taskId === event.taskId ? (other.returned ?? []) : [],
      ),
    );
    const journaled = [
      ...event.messageIds,
      ...events.flatMap((other) =>
        other.type === 'team.delivered' && other.taskId === event.taskId ? other.messageIds : [],
      ),
    ].filter((id) => !returned.has(id) || received.includes(id));
    if (JSON.stringify(received) !== JSON.stringify(journaled))
      differences.push(
        `spell ${event.taskId} of ${event.member} received messages ${JSON.stringify(received)}; the team journaled ${JSON.stringify(journaled)}`,
      );
  }
  return { state, events, result, recorded, spells, matches: differences.length === 0, differences };
}

/** A stored team as {@link readTeam} reads it. */
export interface StoredTeam {
  /** The team's own task (its spec holds the config; `status` is where the store has it). */
  task: StoredTask;
  /** Its journal of team events, in order. */
  events: TeamEvent[];
  /** The state those events fold to: members, messages, task list, end. */
  state: TeamState;
  /** The team task's stored result, if it ended. */
  recorded: TaskResult | undefined;
}

/**
 * Reads a stored team without running anything: its task, its journal of team events and the
 * state they fold to (members idle or working, every message, the task list), for a view of a
 * team that another process ran or runs. Throws `TASK_NOT_FOUND` for an id that is not a stored team.
 */
export async function readTeam(store: TaskStore, teamId: string): Promise<StoredTeam> {
  const task = await store.getTask(teamId);
  const config = task ? teamConfigOf(task.spec) : undefined;
  if (!task || !config || task.spec.team?.member !== undefined)
    throw new TroupeError('TASK_NOT_FOUND', `No team "${teamId}" in the store.`);
  const events = teamEventsOf((await store.loadJournal(teamId)).entries);
  let state = initialTeamState(teamId, config);
  for (const event of events) state = applyTeamEvent(state, event);
  const recorded = task.result ?? (await store.loadResult(teamId));
  return { task, events, state, recorded };
}
