import type { DBOSClient } from '@dbos-inc/dbos-sdk';
import type { Runtime, RuntimeEvents, TaskHandle, TaskResult, TaskStore } from '@troupe/core';
import { prepareTask, type TeamRuntime, taskPlannerOf } from '@troupe/core/internal';
import type { PostgresTaskStore } from '../store/postgres-store.js';
import { cancelTasks } from './cancel-tasks.js';
import {
  CONTROL_CHANNEL,
  type ControlMessage,
  EVENTS_CHANNEL,
  encodeEvent,
  MAX_CONTROL_BYTES,
} from './channels.js';
import { submitTasks } from './submit-tasks.js';
import { untilReachable } from './until-reachable.js';

/** What the spells of a hosted team need of the worker hosting it. */
export interface TeamSpellsHost {
  readonly runtime: Runtime;
  /** The real store: its pool, and notifications sent with its writes (fenced by the team's claim). */
  readonly postgres: PostgresTaskStore;
  /** The store the team journals in (the worker's). */
  readonly store: TaskStore;
  dbos(): Promise<DBOSClient>;
  stopped(): boolean;
  /** How often the store is asked which running spells ended (ms). */
  readonly pollMs: number;
}

/**
 * The runtime a team hosted by a cluster worker sees: its members' spells are cluster tasks, queued
 * on the task queue once the team's journal (with `team.spell.started`) is committed, and claimed
 * by any worker; a message for a working member is a steer notification sent with the journal
 * write of its delivery (one transaction), for whichever worker runs the spell; a spell's end is
 * read from the store. The team journals through the worker's store, fenced by its claim: a host
 * taken for dead writes nothing more for it.
 */
export class TeamSpells implements TeamRuntime {
  readonly store: TaskStore;
  readonly clock: TeamRuntime['clock'];
  readonly limits: TeamRuntime['limits'];
  readonly agents: TeamRuntime['agents'];
  /** Spells started or followed and not seen ended, with what waits for their results. */
  private readonly live = new Map<string, (result: TaskResult | undefined) => void>();
  private readonly results = new Map<string, Promise<TaskResult | undefined>>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly host: TeamSpellsHost,
    private readonly teamId: string,
  ) {
    this.store = host.store;
    this.clock = host.runtime.clock;
    this.limits = host.runtime.limits;
    this.agents = host.runtime.agents;
  }

  /** After a restore: these spells are unfinished in the store (run by some worker, or queued). */
  markLive(taskIds: readonly string[]): void {
    for (const taskId of taskIds) void this.result(taskId);
  }

  spawnInternal(options: Parameters<TeamRuntime['spawnInternal']>[0]): TaskHandle {
    const { taskId, ...rest } = options;
    if (taskId === undefined) throw new Error(`Team ${this.teamId}: a spell needs its id.`);
    const { spec } = prepareTask(taskPlannerOf(this.host.runtime), rest, taskId);
    const result = this.result(taskId);
    // Queued only once the journal that names it is committed: a restored team finds it, or
    // starts it again with the same id.
    void untilReachable(
      async () => {
        await this.store.flush();
        if (this.closed) return;
        await submitTasks(this.host.postgres.pool, await this.host.dbos(), [spec]);
      },
      () => this.closed || this.host.stopped(),
    ).catch((error: unknown) => {
      if (this.closed || this.host.stopped()) return;
      this.report('runtime.warning', {
        code: 'PERSISTENCE_FAILED',
        message: `Team ${this.teamId}: spell ${taskId} could not be queued: ${(error as Error)?.message ?? String(error)}.`,
        taskId,
      });
      this.settle(taskId, undefined);
    });
    return { id: taskId, result: result as Promise<TaskResult> };
  }

  steer(id: string, text: string): void {
    const message: ControlMessage = { type: 'steer', taskId: id, text };
    const payload = JSON.stringify(message);
    // Too long for a notification: the spell does not get it; its member gets it with its next spell.
    if (Buffer.byteLength(payload) > MAX_CONTROL_BYTES)
      throw new Error(`The messages for ${id} are too long for a notification.`);
    // Sent with the journal write of the delivery; every worker holds it until one runs the spell,
    // which gives it once (see WorkerTeams.steerSpell).
    this.host.postgres.notify(CONTROL_CHANNEL, this.teamId, payload);
  }

  /** Cancels a spell wherever it is (queued, or running on any worker): a live one, or an orphan after a restore. */
  cancel(id: string, reason = 'The team was cancelled.'): boolean {
    void untilReachable(async () => {
      await this.store.flush();
      const outcome = await cancelTasks(this.host.postgres.pool, { taskId: id }, reason);
      if (outcome.queued.length) await (await this.host.dbos()).cancelWorkflows(outcome.queued);
      if (outcome.running.length)
        await this.host.postgres.pool.query('SELECT pg_notify($1, $2)', [
          CONTROL_CHANNEL,
          JSON.stringify({ type: 'cancel', taskId: id, reason } satisfies ControlMessage),
        ]);
    }, this.host.stopped).catch(() => {
      // The request stays in the row if it got there; the spell's worker reads it at its heartbeat.
    });
    return true;
  }

  result(id: string): Promise<TaskResult | undefined> {
    const known = this.results.get(id);
    if (known) return known;
    const promise = new Promise<TaskResult | undefined>((resolve) => this.live.set(id, resolve));
    this.results.set(id, promise);
    this.timer ??= setInterval(() => void this.poll(), this.host.pollMs);
    return promise;
  }

  liveStatus(id: string): string | undefined {
    return this.live.has(id) ? 'running' : undefined;
  }

  /**
   * A team's warning goes to the cluster's clients (a notification); its events stay in its
   * journal, in the store (the state each carries is too big for a notification).
   */
  report<TName extends 'runtime.warning' | 'team.event'>(name: TName, event: RuntimeEvents[TName]): void {
    if (name !== 'runtime.warning') return;
    this.host.postgres.notify(EVENTS_CHANNEL, undefined, encodeEvent(name, event));
  }

  /** The team ended or left this worker: stops following its spells (their results stay pending). */
  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private settle(id: string, result: TaskResult | undefined): void {
    const resolve = this.live.get(id);
    this.live.delete(id);
    resolve?.(result);
  }

  /** Settles the spells whose results the store has. */
  private async poll(): Promise<void> {
    if (this.closed) return;
    const ids = [...this.live.keys()];
    if (!ids.length) return;
    try {
      const { rows } = await this.host.postgres.pool.query<{ task_id: string; result: TaskResult }>(
        'SELECT task_id, result FROM troupe.tasks WHERE task_id = ANY($1) AND result IS NOT NULL',
        [ids],
      );
      if (this.closed) return;
      for (const row of rows) this.settle(row.task_id, row.result);
    } catch {
      // The server is away: the next poll asks again.
    }
  }
}
