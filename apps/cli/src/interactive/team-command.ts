import type { TeamState } from '@troupe/core';
import { UsageError } from '../errors.js';
import { teamLines } from '../render/team-view.js';
import { matchTaskId } from '../task-ids.js';
import type { SessionHost } from './session-host.js';

/** Messages `/team` shows (the latest); `troupe tasks show TEAM-ID` shows them all. */
const SHOWN_MESSAGES = 10;

/**
 * `/team [ID]` shows a team of the session (the latest without ID; ID may be a prefix): its
 * members (idle or working, tokens), its latest messages and its task list. `/team cancel [ID]`
 * stops it.
 */
export function teamCommand(app: SessionHost, words: readonly string[]): void {
  const { terminal, teams } = app;
  const { colors } = terminal;
  const cancel = words[0]?.toLowerCase() === 'cancel';
  const given = cancel ? words[1] : words[0];
  const states = teams.list();
  if (states.length === 0) {
    terminal.log(
      'No team in this session yet: ask for one (the main agent starts teams with its TeamCreate tool).',
    );
    return;
  }
  const id = given
    ? matchTaskId(
        states.map((state) => state.teamId),
        given,
      )
    : states.at(-1)!.teamId;
  const handle = app.runtime.team(id);
  const state: TeamState = handle?.state() ?? states.find((candidate) => candidate.teamId === id)!;
  if (cancel) {
    if (state.ended || !handle)
      throw new UsageError(`Team ${id} has already ended (${state.ended?.status ?? 'not running'}).`);
    handle.cancel('Cancelled by the user.');
    terminal.log(`Cancelling team ${state.config.name} (${id}).`);
    return;
  }
  const lines = teamLines(state, colors, terminal.columns(), {
    messages: SHOWN_MESSAGES,
    progress: (taskId) => teams.progressOf(taskId),
  });
  const others = states.filter((other) => other.teamId !== id);
  if (others.length)
    lines.push(
      '',
      colors.dim(
        `Other teams of this session: ${others.map((other) => `${other.config.name} (${other.teamId})`).join(', ')}. Show one with /team ID.`,
      ),
    );
  terminal.log(lines.join('\n'));
}
