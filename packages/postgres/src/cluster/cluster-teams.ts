import type { TaskStore, TeamResult, TeamState } from '@troupe/core';
import { TroupeError } from '@troupe/core';
import type { TeamHosting } from './remote-team.js';

/** A team queued on a cluster (`ClusterClient.createTeam`): any worker hosts it. */
export interface ClusterTeamHandle {
  /** The team's id: its own task's id (its members' spells are `<id>-<member>-<n>`). */
  readonly id: string;
  /**
   * Resolves when the team ends, with what its journal holds (members, messages, task list,
   * usage). Never rejects for a team's failure: read `status`.
   */
  readonly result: Promise<TeamResult>;
  /** The team's state now, folded from its journal in the store. */
  state(): Promise<TeamState>;
  /** Cancels the team: its host cancels every member's spell. False if it has ended. */
  cancel(reason?: string): Promise<boolean>;
}

/** A team's state from the store: its config (its task's spec) and its journal, folded. */
export async function storedTeamState(
  kit: TeamHosting,
  store: TaskStore,
  teamId: string,
): Promise<TeamState> {
  const task = await store.getTask(teamId);
  const config = task ? kit.teamConfigOf(task.spec) : undefined;
  if (!config)
    throw new TroupeError(
      'TASK_NOT_FOUND',
      `The cluster has no team "${teamId}" (or its stored config is unreadable).`,
    );
  const { entries } = await store.loadJournal(teamId);
  let state = kit.initialTeamState(teamId, config);
  for (const event of kit.teamEventsOf(entries)) state = kit.applyTeamEvent(state, event);
  return state;
}
