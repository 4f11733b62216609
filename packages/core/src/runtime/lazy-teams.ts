import type { Teams } from '../teams/team-registry.js';
import type { TeamRuntime } from '../teams/team-runtime.js';

/**
 * The runtime's agent teams, loaded the first time a team is created or restored: a runtime that
 * never runs a team (a browser app's) does not carry their code in its first bundle.
 */
export class LazyTeams {
  private teams: Teams | undefined;
  private loading: Promise<Teams> | undefined;

  constructor(
    private readonly runtime: TeamRuntime,
    private readonly createId: () => string,
  ) {}

  /** The teams, once loaded; undefined while no team was created or restored. */
  get loaded(): Teams | undefined {
    return this.teams;
  }

  /** Loads the teams' code (once). */
  load(): Promise<Teams> {
    this.loading ??= import('../teams/team-registry.js').then(({ Teams }) => {
      this.teams = new Teams(this.runtime, this.createId);
      return this.teams;
    });
    return this.loading;
  }
}
