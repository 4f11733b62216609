import type { StoredTask } from '@troupe/core';
import { loadTeamHosting, type TeamAccess, taskEventBase, teamRegistryOf } from '@troupe/core/internal';
import { FINAL_STATUS_LIST } from '../store/final-statuses-sql.js';
import {
  CONTROL_CHANNEL,
  EVENTS_CHANNEL,
  encodeEvent,
  MAX_CONTROL_BYTES,
  type TeamCallMessage,
  type TeamReplyMessage,
} from './channels.js';
import { RemoteTeam, type TeamHosting } from './remote-team.js';
import { TeamSpells, type TeamSpellsHost } from './team-spells.js';
import { untilReachable } from './until-reachable.js';

type Team = InstanceType<TeamHosting['Team']>;

/**
 * What a worker's teams need of the worker: what the spells of a team it hosts need
 * ({@link TeamSpellsHost}: its runtime, its fenced store, DBOS, how often to poll), and its id.
 */
export interface WorkerTeamsHost extends TeamSpellsHost {
  readonly workerId: string;
}

/** A hosted team: the team, its spells' runtime, and its end reported to the worker. */
interface Hosted {
  team: Team;
  spells: TeamSpells;
}

/**
 * A cluster worker's part in agent teams (`docs/decisions/2026-11-26-agent-teams.md`, "Across
 * workers"). It hosts the teams whose own task it claimed: the team (its journal, mailbox and task
 * list; one host at a time, by the claim) runs here, its members' spells are cluster tasks
 * ({@link TeamSpells}), and it answers the team tool calls of spells on any worker. For the spells
 * this worker runs whose team another worker hosts, it gives the runtime a {@link RemoteTeam}, and
 * it gives each steered teammate message to a spell once (a message held for a queued spell by
 * every worker, or sent again after a restore, is given only if the spell has not had it).
 */
export class WorkerTeams {
  private kit: TeamHosting | undefined;
  private loading: Promise<TeamHosting> | undefined;
  private readonly hosts = new Map<string, Hosted>();
  private readonly remote = new Map<string, RemoteTeam>();
  private readonly replies = new Map<string, (reply: TeamReplyMessage | undefined) => void>();
  /** The spells this worker runs, by task id: their team, and the message ids given to them here. */
  private readonly spells = new Map<string, { teamId: string; given: Set<string>; queue: Promise<void> }>();

  constructor(private readonly worker: WorkerTeamsHost) {}

  /** Loads the team modules and lets the runtime's spells reach teams hosted here or elsewhere. */
  private load(): Promise<TeamHosting> {
    this.loading ??= Promise.all([loadTeamHosting(), teamRegistryOf(this.worker.runtime).loadTeams()]).then(
      ([kit, registry]) => {
        this.kit = kit;
        registry.reachElsewhere((teamId) => this.reach(teamId));
        return kit;
      },
    );
    return this.loading;
  }

  private reach(teamId: string): TeamAccess | undefined {
    return this.hosts.get(teamId)?.team ?? this.remote.get(teamId);
  }

  /**
   * Before a member's spell runs here: its team is known (hosted here, or read from the store), so
   * the spell gets its team tools and its plan approval is known.
   */
  async attachSpell(taskId: string, teamId: string): Promise<void> {
    const kit = await this.load();
    if (!this.spells.has(taskId))
      this.spells.set(taskId, { teamId, given: new Set(), queue: Promise.resolve() });
    if (this.hosts.has(teamId)) return;
    let remote = this.remote.get(teamId);
    if (!remote) {
      const stored = await this.worker.store.getTask(teamId);
      const config = stored ? kit.teamConfigOf(stored.spec) : undefined;
      if (!config) throw new Error(`Team ${teamId} of spell ${taskId} is not in the store (or unreadable).`);
      remote = new RemoteTeam(kit, teamId, config, {
        workerId: this.worker.workerId,
        store: this.worker.store,
        send: (message) => this.send(message),
        reply: (callId, ms) => this.awaitReply(callId, ms),
        stopped: () => this.worker.stopped(),
      });
      this.remote.set(teamId, remote);
    }
    await remote.refresh();
  }

  /**
   * A task this worker ran ended: if a spell, it is forgotten here (a steer for it is no longer
   * given), and so is its team's {@link RemoteTeam} once no spell of the team runs here.
   */
  spellEnded(taskId: string): void {
    const spell = this.spells.get(taskId);
    if (!spell) return;
    this.spells.delete(taskId);
    for (const other of this.spells.values()) if (other.teamId === spell.teamId) return;
    this.remote.delete(spell.teamId);
  }

  /** Whether `taskId` is a team member's spell this worker runs. */
  isSpell(taskId: string): boolean {
    return this.spells.has(taskId);
  }

  /**
   * Gives a steered teammate message to a spell run here, once: skipped if this worker gave it
   * already or the spell's journal has it. The team's state is read first, so a plan approval the
   * message brings is known before the spell's next model answer is checked.
   */
  steerSpell(taskId: string, text: string, give: (text: string) => void): void {
    const spell = this.spells.get(taskId);
    const kit = this.kit;
    if (!spell || !kit) {
      give(text);
      return;
    }
    const ids = kit.idsInText(text);
    spell.queue = spell.queue.then(async () => {
      try {
        if (ids.some((id) => spell.given.has(id))) return;
        await this.worker.store.flush();
        const { entries } = await this.worker.store.loadJournal(taskId);
        for (const entry of entries)
          if (entry.event.type === 'task.steered')
            for (const id of kit.idsInText((entry.event as { text: string }).text)) spell.given.add(id);
        if (ids.some((id) => spell.given.has(id))) return;
        await this.remote.get(spell.teamId)?.refresh();
        for (const id of ids) spell.given.add(id);
        give(text);
      } catch {
        // The spell ended meanwhile, or the store is away: its team finds the message missing from
        // its conversation when it ends, and delivers it again.
      }
    });
  }

  /**
   * Runs the team whose task this worker claimed until it ends (or leaves this worker): a queued
   * team starts; one whose host died resumes from its journal, following its unfinished spells
   * wherever they run and starting again the ones the store never got. Resolves with its status.
   */
  async host(task: StoredTask, cancelRequested: string | undefined): Promise<string> {
    const kit = await this.load();
    const spec = task.spec;
    const teamId = spec.taskId;
    const config = kit.teamConfigOf(spec);
    if (!config) throw new Error(`Team ${teamId}: its stored config is unreadable.`);
    const spells = new TeamSpells(this.worker, teamId);
    let team: Team;
    if (task.status === 'queued') {
      team = new kit.Team(spells, teamId, config, [], spec.createdAt);
      this.hosts.set(teamId, { team, spells });
      team.start(spec, true);
    } else {
      const { entries } = await this.worker.store.loadJournal(teamId);
      team = new kit.Team(spells, teamId, config, kit.teamEventsOf(entries), spec.createdAt);
      this.hosts.set(teamId, { team, spells });
      const known = Object.values(team.snapshot.members).flatMap((member) =>
        member.spell ? [member.spell] : [],
      );
      // Read again while the server is away (a lost connection must not fail the team for good).
      const { rows } = await untilReachable(
        () =>
          this.worker.postgres.pool.query<{ task_id: string }>(
            `SELECT task_id FROM troupe.tasks
             WHERE spec->'team'->>'teamId' = $1 AND spec->'team'->>'member' IS NOT NULL
               AND status NOT IN ${FINAL_STATUS_LIST} AND result IS NULL`,
            [teamId],
          ),
        () => this.worker.stopped(),
      );
      const unfinished = rows.map((row) => row.task_id);
      spells.markLive(unfinished.filter((id) => known.includes(id)));
      await team.resume(unfinished.filter((id) => !known.includes(id)));
    }
    if (cancelRequested !== undefined) team.cancel(cancelRequested || undefined);
    const result = await team.result;
    spells.close();
    if (this.hosts.get(teamId)?.team !== team) return 'abandoned';
    this.hosts.delete(teamId);
    const taskResult = kit.teamTaskResult(
      result,
      Math.max(0, this.worker.runtime.clock.now() - spec.createdAt),
    );
    const event = Object.assign(taskEventBase(spec, this.worker.runtime.clock.now()), { result: taskResult });
    this.worker.postgres.notify(EVENTS_CHANNEL, teamId, encodeEvent(`task.${result.status}`, event));
    return result.status;
  }

  /** Cancels a team hosted here. False if none. */
  cancel(teamId: string, reason: string | undefined): boolean {
    const hosted = this.hosts.get(teamId);
    if (!hosted) return false;
    hosted.team.cancel(reason);
    return true;
  }

  /** Cancels the teams of a session hosted here. */
  cancelSession(sessionKey: string, reason: string | undefined): void {
    for (const { team } of this.hosts.values())
      if (team.snapshot.config.sessionKey === sessionKey && !team.snapshot.ended)
        team.cancel(reason ?? `Session ${sessionKey} was cancelled.`);
  }

  /** Another worker took the team over: this one writes nothing more for it. */
  abandon(teamId: string): boolean {
    const hosted = this.hosts.get(teamId);
    if (!hosted) return false;
    this.hosts.delete(teamId);
    hosted.team.detach();
    hosted.spells.close();
    return true;
  }

  /** The worker stops: its teams stay unfinished in the store, for another worker to host. */
  stop(): void {
    for (const teamId of [...this.hosts.keys()]) this.abandon(teamId);
    for (const resolve of this.replies.values()) resolve(undefined);
    this.replies.clear();
  }

  /** A team tool call from a spell on any worker: answered if its team is hosted here. */
  call(message: TeamCallMessage): void {
    const hosted = this.hosts.get(message.teamId);
    if (!hosted) return;
    const { team } = hosted;
    let reply: TeamReplyMessage;
    try {
      if (!team.snapshot.members[message.member])
        throw new Error(`${message.member} is not a member of team ${message.teamId}.`);
      const input = message.input as never;
      const answer =
        message.method === 'sendMessage'
          ? team.sendMessage(message.member, message.key, input)
          : message.method === 'createTask'
            ? team.createTask(message.member, message.key, input)
            : message.method === 'updateTask'
              ? team.updateTask(message.member, message.key, input)
              : team.requestPlanApproval(message.member, message.key, String(message.input));
      reply = { type: 'teamReply', worker: message.worker, callId: message.callId, answer };
      if (Buffer.byteLength(JSON.stringify(reply)) > MAX_CONTROL_BYTES)
        reply = { type: 'teamReply', worker: message.worker, callId: message.callId };
    } catch (error) {
      const text = (error as Error)?.message ?? String(error);
      reply = {
        type: 'teamReply',
        worker: message.worker,
        callId: message.callId,
        error: text.slice(0, 4_000),
      };
    }
    // With the journal write of the change (one transaction): an answer is never ahead of it.
    this.worker.postgres.notify(CONTROL_CHANNEL, message.teamId, JSON.stringify(reply));
  }

  /** The reply to a call a spell here made. */
  replied(message: TeamReplyMessage): void {
    if (message.worker !== this.worker.workerId) return;
    const resolve = this.replies.get(message.callId);
    this.replies.delete(message.callId);
    resolve?.(message);
  }

  private awaitReply(callId: string, ms: number): Promise<TeamReplyMessage | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.replies.delete(callId);
        resolve(undefined);
      }, ms);
      this.replies.set(callId, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
    });
  }

  private async send(message: TeamCallMessage): Promise<void> {
    await this.worker.postgres.pool.query('SELECT pg_notify($1, $2)', [
      CONTROL_CHANNEL,
      JSON.stringify(message),
    ]);
  }
}
