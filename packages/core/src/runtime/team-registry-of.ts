import type { Teams } from '../teams/team-registry.js';
import type { Runtime } from './create-runtime.js';

/** What a cluster worker needs of its runtime's teams (see `Runtime.loadTeams`). */
export interface TeamRegistryAccess {
  /** The runtime's teams, their code loaded on first use. */
  loadTeams(): Promise<Teams>;
}

/**
 * The runtime's teams, for `@troupe/postgres`'s workers: the spells they run reach a team another
 * worker hosts (`Teams.reachElsewhere`). The member is internal to `Runtime`; this is the one
 * sanctioned way to reach it.
 */
export function teamRegistryOf(runtime: Runtime): TeamRegistryAccess {
  return runtime;
}

/** The modules a cluster worker hosts teams with, loaded on first use (teams are a lazy chunk). */
export function loadTeamHosting(): Promise<typeof import('../teams/team-hosting.js')> {
  return import('../teams/team-hosting.js');
}
