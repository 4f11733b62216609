import type { TeamEvent, TeamState } from '@troupe/core';
import type { TimelineRecorder } from './recorder.js';

/** What {@link recordTeams} needs of a runtime: its `team.event`s. */
export interface TeamEventSource {
  /** Subscribes to the runtime's `team.event`s; returns a function that unsubscribes. */
  on(
    name: 'team.event',
    listener: (event: { teamId: string; event: TeamEvent; state: TeamState }) => void,
  ): () => void;
}

/**
 * Records every event the runtime's agent teams journal into `recorder`'s timeline, in its place
 * among the actors' records, so a live timeline (`troupe --inspect`, the web app's "This app, live")
 * shows its teams as a replayed one does. Call it with the runtime the recorder inspects, before
 * any team is created or restored: a team's view folds its events from its first, so a team met
 * mid-way (restored before the call) is drawn from there only; replay it from the store to see it
 * whole. Returns a function that stops it.
 */
export function recordTeams(runtime: TeamEventSource, recorder: TimelineRecorder): () => void {
  return runtime.on('team.event', ({ teamId, event, state }) => recorder.team(teamId, event, state.config));
}
