import { isFinalStatus } from '../persistence/statuses.js';
import { isTeamTask } from '../persistence/task-facts.js';
import type { StoredTask, TaskSpec } from '../persistence/types.js';
import type { Tool, ToolAccess } from '../tools/define-tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { Team } from './team.js';
import { teamConfigOf, teamEventsOf, teamSpec } from './team-documents.js';
import type { TeamEvent } from './team-events.js';
import { type CreateTeamOptions, teamConfigFrom } from './team-options.js';
import type { TeamRuntime } from './team-runtime.js';
import type { TeamState } from './team-state.js';
import { type TeamToolTarget, teamTools, withTeamTools } from './team-tools.js';
import type { TeamResult } from './team-types.js';

/** A team a host created or restored: its result, its state, messages from the host, cancel. */
export interface TeamHandle {
  readonly id: string;
  /** Resolves when the team ends. Never rejects for a team's failure: read `status`. */
  readonly result: Promise<TeamResult>;
  /** The team's state now: members (idle or working), messages, task list. */
  state(): TeamState;
  /** Sends member `to` a message from the host (`from: "host"`), delivered like a teammate's. */
  send(to: string, text: string): void;
  /** Cancels the team: every member's spell is cancelled. */
  cancel(reason?: string): void;
  /** Calls `listener` with each event the team journals. Returns an unsubscribe function. */
  subscribe(listener: (event: TeamEvent, state: TeamState) => void): () => void;
}

/**
 * A team as its members' spells reach it: the tool calls, its state, and whether a member may use
 * write tools. A `Team` of this runtime, or a team another cluster worker hosts (seen through the
 * store), given by {@link Teams.reachElsewhere}.
 */
export interface TeamAccess extends TeamToolTarget {
  readonly snapshot: TeamState;
  mayWrite(member: string): boolean;
}

/**
 * The runtime's teams: creates and restores them, gives their members' spells the team tools, and
 * refuses the write tools of a member whose plan is not approved.
 */
export class Teams {
  private readonly teams = new Map<string, Team>();
  /** Each member's team tools, made once (by `<teamId>/<member>`). */
  private readonly tools = new Map<string, Tool[]>();
  /** Restored teams not resumed yet. */
  private loaded: Team[] = [];
  /** Teams hosted elsewhere (another cluster worker), for the spells of their members run here. */
  private elsewhere: ((teamId: string) => TeamAccess | undefined) | undefined;

  constructor(
    private readonly runtime: TeamRuntime,
    private readonly createId: () => string,
  ) {}

  /** Creates a team and wakes its lead (and the teammates that have a prompt). */
  create(options: CreateTeamOptions): TeamHandle {
    const config = teamConfigFrom(options, (agent) => this.runtime.agents.require(agent).name);
    const teamId = this.createId();
    const team = new Team(this.runtime, teamId, config);
    this.add(team);
    team.start(teamSpec(teamId, config, this.runtime.clock.now()));
    return this.handleOf(team);
  }

  /**
   * Lets the spells this runtime runs reach teams it does not hold (a cluster worker runs a member's
   * spell; another worker hosts its team): `find` gives the team by id, or undefined.
   */
  reachElsewhere(find: (teamId: string) => TeamAccess | undefined): void {
    this.elsewhere = find;
  }

  /** A team of this runtime (created or restored), by id. */
  get(teamId: string): TeamHandle | undefined {
    const team = this.teams.get(teamId);
    return team ? this.handleOf(team) : undefined;
  }

  /** `registry` with the team tools, for a member's spell; unchanged for any other task. */
  registryFor(registry: ToolRegistry, spec: TaskSpec): ToolRegistry {
    const link = spec.team;
    if (!link?.member) return registry;
    const teamId = link.teamId;
    const key = `${teamId}/${link.member}`;
    let tools = this.tools.get(key);
    if (!tools) {
      const planMode = this.memberConfig(teamId, link.member)?.planModeRequired === true;
      tools = teamTools(() => this.reach(teamId), link.member, planMode);
      this.tools.set(key, tools);
    }
    return withTeamTools(registry, tools);
  }

  /** A refusal for a write or execute call of a member whose plan the lead has not approved. */
  disposition(spec: TaskSpec, access: ToolAccess): { deny: string } | undefined {
    const link = spec.team;
    if (access === 'read' || !link?.member) return undefined;
    const team = this.reach(link.teamId);
    if (!team || team.mayWrite(link.member)) return undefined;
    return {
      deny: `your plan is not approved by the lead yet. Send it with ExitPlanMode { plan } and wait for the lead's answer before using write or execute tools.`,
    };
  }

  /** Before a restore starts tasks: folds the journal of every unfinished team, so their spells find them. */
  async load(tasks: readonly StoredTask[]): Promise<void> {
    for (const task of tasks) {
      const spec = task.spec;
      if (!isTeamTask(spec) || isFinalStatus(task.status) || task.result || this.teams.has(spec.taskId))
        continue;
      const config = teamConfigOf(spec);
      if (!config) {
        this.warnPersistence(
          `Team ${spec.taskId} cannot be restored: its stored config is unreadable.`,
          spec.taskId,
        );
        continue;
      }
      const { entries } = await this.runtime.store.loadJournal(spec.taskId);
      const team = new Team(this.runtime, spec.taskId, config, teamEventsOf(entries), spec.createdAt);
      this.add(team);
      this.loaded.push(team);
    }
  }

  /** After a restore started the tasks: the loaded teams follow their spells and go on. */
  async resume(tasks: readonly StoredTask[]): Promise<void> {
    const loaded = this.loaded;
    this.loaded = [];
    for (const team of loaded) {
      const known = new Set(
        Object.values(team.snapshot.members).flatMap((member) => (member.spell ? [member.spell] : [])),
      );
      const orphans = tasks
        .filter(
          (task) =>
            task.spec.team?.teamId === team.id &&
            task.spec.team.member !== undefined &&
            !isFinalStatus(task.status) &&
            !task.result &&
            !known.has(task.spec.taskId),
        )
        .map((task) => task.spec.taskId);
      await team.resume(orphans);
    }
  }

  /** Cancels the teams of a session (with `cancelSession`). Returns how many. */
  cancelSession(sessionKey: string): number {
    let count = 0;
    for (const team of this.teams.values()) {
      const state = team.snapshot;
      if (state.config.sessionKey !== sessionKey || state.ended) continue;
      team.cancel(`Session ${sessionKey} was cancelled.`);
      count++;
    }
    return count;
  }

  /** The runtime shuts down: teams are cancelled, or, keeping tasks, left unfinished for a restore. */
  shutdown(keepTasks: boolean): void {
    for (const team of this.teams.values()) {
      if (keepTasks) team.detach();
      else team.shutdown();
    }
  }

  /** Keeps a team, and reports each event it journals as a runtime `team.event`. */
  private add(team: Team): void {
    this.teams.set(team.id, team);
    const sessionKey = team.snapshot.config.sessionKey;
    team.subscribe((event, state) =>
      this.runtime.report('team.event', { teamId: team.id, sessionKey, event, state }),
    );
  }

  private memberConfig(teamId: string, member: string) {
    return this.reach(teamId)?.snapshot.config.members.find((candidate) => candidate.name === member);
  }

  /** The team of this runtime, else the one hosted elsewhere. */
  private reach(teamId: string): TeamAccess | undefined {
    return this.teams.get(teamId) ?? this.elsewhere?.(teamId);
  }

  private handleOf(team: Team): TeamHandle {
    return {
      id: team.id,
      result: team.result,
      state: () => team.snapshot,
      send: (to, text) => team.post(to, text),
      cancel: (reason) => team.cancel(reason),
      subscribe: (listener) => team.subscribe(listener),
    };
  }

  private warnPersistence(message: string, taskId: string): void {
    this.runtime.report('runtime.warning', { code: 'PERSISTENCE_FAILED', message, taskId });
  }
}
