import { hostname } from 'node:os';
import { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk';
import {
  createRuntime,
  isFinalTaskEvent,
  PersistenceError,
  type Runtime,
  type RuntimeEventName,
  type StoredTask,
  TroupeError,
  ValidationError,
} from '@troupe/core';
import { type StoredTaskRunner, storedTaskRunnerOf } from '@troupe/core/internal';
import { resultDocument } from '@troupe/core/store';
import { openPostgresStore, type PostgresTaskStore } from '../store/postgres-store.js';
import {
  APPLICATION_VERSION,
  CLUSTER_EVENTS,
  CONTROL_CHANNEL,
  type ControlMessage,
  EVENTS_CHANNEL,
  encodeEvent,
  TASK_QUEUE,
  TASK_WORKFLOW,
  TEAM_QUEUE,
} from './channels.js';
import { claimTask } from './claim-task.js';
import { clusterLimits, type WorkerOptions } from './cluster-options.js';
import { migrateDbos } from './migrate-dbos.js';
import { NotificationListener } from './notification-listener.js';
import { quarantine } from './quarantine-task.js';
import { resumeClaimedTask } from './resume-claimed-task.js';
import { untilReachable } from './until-reachable.js';
import { readingAgain } from './while-store-away.js';
import { WorkerLiveness } from './worker-liveness.js';
import { WorkerTeams } from './worker-teams.js';

/** Queued tasks whose steering a worker holds for when it runs them, at most. */
const MAX_EARLY_STEERED = 10_000;
/** What a task's workflow returns on a worker that gave the task up to another. */
const ABANDONED = 'abandoned';
/** A claim given up because the worker stops. */
const STOPPING = Symbol('stopping');

let current: ClusterWorker | undefined;
let registered = false;

/** The workflow body: run one task on this process's worker. Re-run from the start on recovery. */
async function runTaskWorkflow(taskId: string): Promise<string> {
  if (!current)
    throw new TroupeError('RUNTIME_STOPPED', `No troupe worker runs in this process (task ${taskId}).`);
  return current.execute(taskId);
}

/**
 * A worker of a troupe cluster: a DBOS executor that dequeues task workflows and runs each
 * task in a local runtime on the shared Postgres store — a queued task through the runtime's
 * supervisor like a spawn, a task taken over from a dead worker by restoring it —, forwards the
 * runtime's events to every client over NOTIFY, obeys cancellations, steering and approval
 * decisions from any process, and takes over the tasks of workers that died.
 */
export class ClusterWorker {
  readonly id: string;
  /**
   * The local runtime the tasks run in: the cluster's task limits, and at most
   * `workerConcurrency` (else the cluster's `maxConcurrent`) running at once, as DBOS's queue
   * gives this worker no more.
   */
  readonly runtime: Runtime;
  private readonly runner: StoredTaskRunner;
  /** A worker silent this long is taken for dead by the others (see `WorkerOptions.deadAfterMs`). */
  readonly deadAfterMs: number;
  private readonly store: PostgresTaskStore;
  /** Tasks given up to another worker: the store drops their writes until they are claimed again. */
  private readonly abandoned = new Set<string>();
  private readonly waiting = new Map<string, (status: string) => void>();
  private readonly earlyCancels = new Map<string, string | undefined>();
  /** Steering notified for a task before it was here, given to it when it comes. */
  private readonly earlySteers = new Map<string, string[]>();
  /** Running tasks already asked to stop, so the heartbeat's check does not ask again. */
  private readonly cancelling = new Set<string>();
  private listener: NotificationListener | undefined;
  private liveness: WorkerLiveness | undefined;
  private stopped = false;
  private readonly onTasksLost: WorkerOptions['onTasksLost'];
  /** Agent teams: those hosted here, and the spells run here of teams hosted anywhere. */
  private readonly teams: WorkerTeams;
  /** A DBOS client for queueing a hosted team's spells (made at the first). */
  private dbosClient: Promise<DBOSClient> | undefined;

  /** @internal Use {@link startWorker}. */
  constructor(options: WorkerOptions, store: PostgresTaskStore, id: string) {
    this.id = id;
    this.store = store;
    this.onTasksLost = options.onTasksLost;
    this.deadAfterMs = options.deadAfterMs ?? (options.heartbeatMs ?? 1_000) * 10;
    // Writes for a task another worker has claimed are dropped by the store: give the task up;
    // those for a task given up are dropped before they are buffered.
    store.fenceAs(
      id,
      (taskIds) => this.abandon(taskIds),
      (taskId) => !this.abandoned.has(taskId),
    );
    const limits = clusterLimits(options.limits);
    const { maxPerSession: _perSession, ...runtimeLimits } = limits;
    this.runtime = createRuntime({
      model: options.model,
      agents: options.agents ?? [],
      tools: options.tools ?? [],
      ...(options.toolSources ? { toolSources: options.toolSources } : {}),
      // DBOS's queue gives this worker at most this many tasks at once: none waits in the supervisor.
      limits: { ...runtimeLimits, maxConcurrent: options.workerConcurrency ?? limits.maxConcurrent },
      // Fenced, the store takes no restore lock: the runtime restores only the tasks claimed here.
      store,
      ...(options.approval ? { approval: options.approval } : {}),
      ...(options.models ? { models: options.models } : {}),
      ...(options.prices ? { prices: options.prices } : {}),
      ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
      ...(options.graceMs ? { graceMs: options.graceMs } : {}),
    });
    this.runner = storedTaskRunnerOf(this.runtime);
    this.teams = new WorkerTeams({
      workerId: id,
      runtime: this.runtime,
      postgres: store,
      // The teams' reads of a team's journal are tried again while the server is away.
      store: readingAgain(store, () => this.stopped),
      dbos: () =>
        (this.dbosClient ??= DBOSClient.create({
          systemDatabaseUrl: options.postgres,
          systemDatabasePoolSize: 2,
        })),
      stopped: () => this.stopped,
      pollMs: options.teamPollMs ?? 250,
    });
    for (const name of CLUSTER_EVENTS) this.runtime.on(name, (event) => this.forward(name, event));
  }

  /** @internal Starts listening, heartbeating and taking over dead workers' tasks. */
  async start(options: WorkerOptions): Promise<void> {
    this.listener = new NotificationListener(options.postgres, [CONTROL_CHANNEL], (_channel, payload) =>
      this.control(JSON.parse(payload) as ControlMessage),
    );
    await this.listener.ready;
    const heartbeatMs = options.heartbeatMs ?? 1_000;
    this.liveness = new WorkerLiveness({
      url: options.postgres,
      workerId: this.id,
      heartbeatMs,
      deadAfterMs: this.deadAfterMs,
      onDead: (dead) => this.takeOver(dead),
      owned: () => [...this.waiting.keys()],
      onLost: (taskIds) => this.abandon(taskIds),
      // A cancellation whose notification was lost (the listener reconnecting) still lands.
      onCancelRequested: (taskId, reason) => this.cancel(taskId, reason || undefined),
    });
    await this.liveness.start();
  }

  /** @internal Runs one task to its end (the body of its DBOS workflow). */
  async execute(taskId: string): Promise<string> {
    if (this.runtime.get(taskId)) {
      // Still here from before this worker was taken for dead (its workflow was handed back to
      // the queue, and came back to it): give that run up, then resume from the store.
      this.abandon([taskId]);
      await this.runtime.result(taskId);
      this.runtime.forget(taskId);
    }
    // Thrown, the workflow would end in error and the task stay unfinished for good: a claim that
    // cannot reach the server is tried again until it can (or this worker stops).
    const claimed = await untilReachable(
      () => claimTask(this.store.pool, taskId, this.id),
      () => this.stopped,
    ).catch((error: unknown): typeof STOPPING => {
      // Stopping (the runtime has closed the store): the workflow stays pending, for recovery.
      if (this.stopped) return STOPPING;
      throw error;
    });
    if (claimed === STOPPING) return new Promise<string>(() => {});
    if (!claimed) return 'ended';
    // Claimed again: its writes are this worker's again.
    this.abandoned.delete(taskId);
    if ('unreadable' in claimed) return this.endUnreadable(taskId, claimed.spec, claimed.unreadable);
    const team = claimed.task.spec.team;
    if (team && team.member === undefined) return this.hostTeam(claimed.task, claimed.cancelRequested);
    if (team?.member !== undefined) {
      // A member's spell: its team tools reach the team wherever it is hosted.
      try {
        await untilReachable(
          () => this.teams.attachSpell(taskId, team.teamId),
          () => this.stopped,
        );
      } catch (error) {
        if (this.stopped) return new Promise<string>(() => {});
        return this.endUnreadable(
          taskId,
          claimed.task.spec,
          `Spell ${taskId} cannot run on worker ${this.id}: ${(error as Error)?.message ?? String(error)}`,
        );
      }
    }
    const done = new Promise<string>((resolve) => this.waiting.set(taskId, resolve));
    try {
      // A task that has not started goes through the supervisor's queue like a spawn; one that
      // started on a worker since taken for dead resumes from its snapshot and journal (read by id).
      if (claimed.task.status === 'queued') this.runner.runStored(claimed.task.spec);
      else if (!(await resumeClaimedTask(this.runtime, taskId, () => this.stopped)))
        throw new PersistenceError(
          'PERSISTENCE_CORRUPT',
          `troupe.tasks has no readable row for task ${taskId}.`,
        );
    } catch (error) {
      // Stopping: the workflow stays pending, for this worker id or another worker to recover.
      if (this.stopped) return new Promise<string>(() => {});
      if (!this.runtime.get(taskId)) {
        this.waiting.delete(taskId);
        const reason = (error as Error)?.message ?? String(error);
        return this.endUnreadable(
          taskId,
          claimed.task.spec,
          `Task ${taskId} cannot be restored on worker ${this.id} from what the store holds: ${reason}`,
        );
      }
    }
    // Requested before the claim (read by it), or notified since (held until the task was here).
    const requested = this.earlyCancels.has(taskId)
      ? (this.earlyCancels.get(taskId) ?? '')
      : claimed.cancelRequested;
    this.earlyCancels.delete(taskId);
    if (requested !== undefined) this.cancel(taskId, requested || undefined);
    for (const text of this.earlySteers.get(taskId) ?? []) this.steer(taskId, text);
    this.earlySteers.delete(taskId);
    const status = await done;
    if (status === ABANDONED) return status;
    // The workflow ends only once the task's end (and its final event, sent with it) is in the
    // store: were it to end first, a worker dying now would leave a task that never finishes.
    // Stopped before it was stored: the workflow stays pending, recovered from the journal.
    if (!(await this.persisted())) return new Promise<string>(() => {});
    return status;
  }

  /**
   * Hosts a team whose task this worker claimed, until it ends or another worker takes it over
   * (see {@link WorkerTeams.host}). The workflow ends once the team's end is in the store.
   */
  private async hostTeam(task: StoredTask, cancelRequested: string | undefined): Promise<string> {
    const taskId = task.spec.taskId;
    const done = new Promise<string>((resolve) => this.waiting.set(taskId, resolve));
    const requested = this.earlyCancels.has(taskId) ? (this.earlyCancels.get(taskId) ?? '') : cancelRequested;
    this.earlyCancels.delete(taskId);
    this.teams.host(task, requested).then(
      (status) => {
        const resolve = this.waiting.get(taskId);
        this.waiting.delete(taskId);
        resolve?.(status);
      },
      (error: unknown) => {
        const resolve = this.waiting.get(taskId);
        this.waiting.delete(taskId);
        if (!resolve || this.stopped) return;
        const message = `Team ${taskId} cannot be hosted on worker ${this.id}: ${(error as Error)?.message ?? String(error)}`;
        void this.endUnreadable(taskId, task.spec, message).then(resolve);
      },
    );
    const status = await done;
    if (status === ABANDONED) return status;
    if (!(await this.persisted())) return new Promise<string>(() => {});
    return status;
  }

  /**
   * Ends a claimed task this worker cannot run from what is stored (its spec unreadable, its
   * restore thrown): failed with `PERSISTENCE_CORRUPT` and `message`, which names the task and the
   * document. Quarantined, not retried: a record that cannot be read now never will be, and
   * throwing would leave the task unfinished forever (or, crashing the process, every worker in
   * turn). The worker and its other tasks carry on.
   */
  private async endUnreadable(taskId: string, spec: unknown, message: string): Promise<string> {
    const { record, event } = quarantine(taskId, spec, message, Date.now());
    this.store.appendStatus(record);
    this.store.saveResult(resultDocument(event.result));
    this.store.notify(EVENTS_CHANNEL, taskId, encodeEvent('task.failed', event));
    if (!(await this.persisted())) return new Promise<string>(() => {});
    return 'failed';
  }

  /**
   * Gives up tasks another worker has claimed (this one was taken for dead while alive): nothing
   * more is written or forwarded for them, their local run is cancelled (stopping its effects),
   * then forgotten, and their workflows here return. Their new worker carries on from the store.
   */
  private abandon(taskIds: readonly string[]): void {
    const lost = taskIds.filter((taskId) => !this.abandoned.has(taskId));
    for (const taskId of lost) {
      this.abandoned.add(taskId);
      this.cancelling.delete(taskId);
      const resolve = this.waiting.get(taskId);
      this.waiting.delete(taskId);
      resolve?.(ABANDONED);
      if (this.teams.abandon(taskId)) continue;
      if (!this.runtime.get(taskId)) continue;
      this.runtime.cancel(taskId, 'Taken over by another worker.');
      void this.runtime.result(taskId).then(() => this.runtime.forget(taskId));
    }
    if (lost.length) this.onTasksLost?.(lost);
  }

  /** Asks a running task to stop, once. False if this worker does not run it. */
  private cancel(taskId: string, reason: string | undefined): boolean {
    if (this.cancelling.has(taskId)) return true;
    if (this.teams.cancel(taskId, reason)) return true;
    if (!this.runtime.cancel(taskId, reason)) return false;
    this.cancelling.add(taskId);
    return true;
  }

  /** Gives a message to a task this worker runs. False if it does not run it (or it ended). */
  private steer(taskId: string, text: string): boolean {
    const info = this.runtime.get(taskId);
    if (!info || info.result || this.abandoned.has(taskId)) return false;
    if (this.teams.isSpell(taskId))
      this.teams.steerSpell(taskId, text, (given) => {
        if (!this.abandoned.has(taskId)) this.runtime.steer(taskId, given);
      });
    else this.runtime.steer(taskId, text);
    return true;
  }

  private forward(name: RuntimeEventName, event: object): void {
    const taskId = (event as { taskId?: string }).taskId;
    if (taskId !== undefined && this.abandoned.has(taskId)) return;
    // Sent with the store's next write batch: a client hearing of a task's end can read it.
    this.store.notify(EVENTS_CHANNEL, taskId, encodeEvent(name, event));
    if (isFinalTaskEvent(name) && taskId !== undefined) {
      this.cancelling.delete(taskId);
      this.teams.spellEnded(taskId);
      const resolve = this.waiting.get(taskId);
      this.waiting.delete(taskId);
      resolve?.(name.slice('task.'.length));
    }
  }

  /**
   * Resolves once everything the runtime wrote is committed, retrying while the server is away
   * (a Postgres restart). False if this worker was stopped before that.
   */
  private async persisted(): Promise<boolean> {
    for (let delay = 100; ; delay = Math.min(delay * 2, 2_000)) {
      try {
        await this.store.flush();
        return true;
      } catch {
        if (this.stopped) return false;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  private control(message: ControlMessage): void {
    if (this.stopped) return;
    try {
      if (message.type === 'cancel') {
        if (!this.cancel(message.taskId, message.reason))
          this.earlyCancels.set(message.taskId, message.reason);
      } else if (message.type === 'steer') {
        if (message.worker !== undefined && message.worker !== this.id) return;
        if (!this.steer(message.taskId, message.text)) {
          const held = this.earlySteers.get(message.taskId) ?? [];
          held.push(message.text);
          this.earlySteers.set(message.taskId, held);
          // Every worker holds a queued task's messages until one runs it: the oldest go first.
          if (this.earlySteers.size > MAX_EARLY_STEERED)
            this.earlySteers.delete(this.earlySteers.keys().next().value!);
        }
      } else if (message.type === 'cancelSession') {
        this.teams.cancelSession(message.sessionKey, message.reason);
        this.runtime.cancelSession(message.sessionKey, message.reason);
      } else if (message.type === 'teamCall') this.teams.call(message);
      else if (message.type === 'teamReply') this.teams.replied(message);
      else if (message.type === 'approve')
        this.runtime.approve(message.approvalId, message.always ? { always: true } : {});
      else if (message.type === 'deny') this.runtime.deny(message.approvalId, message.reason);
    } catch {
      // An approval this worker does not hold: another worker's.
    }
  }

  /** Hands the dead workers' unfinished task workflows back to the queue, for any worker to run. */
  private async takeOver(dead: string[]): Promise<void> {
    for (const queueName of [TASK_QUEUE, TEAM_QUEUE]) {
      const pending = await DBOS.listWorkflows({ status: 'PENDING', executorId: dead, queueName });
      if (pending.length)
        await DBOS.resumeWorkflows(
          pending.map((workflow) => workflow.workflowID),
          { queueName },
        );
    }
  }

  /**
   * Stops this worker. Its unfinished tasks stay in the store and their workflows stay pending:
   * another worker takes them over (or this worker id, started again, recovers them).
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.liveness?.stop();
    await this.listener?.close();
    this.teams.stop();
    await this.runtime.shutdown({ keepTasks: true });
    await (await this.dbosClient?.catch(() => undefined))?.destroy();
    await DBOS.shutdown();
    await this.store.close();
    current = undefined;
  }
}

/**
 * Starts a worker of the cluster at `options.postgres`: creates or migrates the troupe schema and
 * DBOS's system tables, registers the task queue with the cluster's limits (global
 * `maxConcurrent`, per-session `maxPerSession`), and starts dequeuing. One worker per process.
 */
export async function startWorker(options: WorkerOptions): Promise<ClusterWorker> {
  if (current)
    throw new TroupeError(
      'VALIDATION_FAILED',
      'A troupe worker already runs in this process: one per process.',
    );
  checkLiveness(options);
  const store = await openPostgresStore({ url: options.postgres });
  const id = options.workerId ?? `${hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 6)}`;
  const worker = new ClusterWorker(options, store, id);
  current = worker;
  try {
    if (!registered) {
      DBOS.registerWorkflow(runTaskWorkflow, { name: TASK_WORKFLOW });
      registered = true;
    }
    const limits = clusterLimits(options.limits);
    DBOS.setConfig({
      name: 'troupe',
      systemDatabaseUrl: options.postgres,
      executorID: id,
      applicationVersion: APPLICATION_VERSION,
      logLevel: 'error',
      systemDatabasePoolSize: 6,
    });
    await migrateDbos(options.postgres);
    await DBOS.launch();
    await DBOS.registerQueue(TASK_QUEUE, {
      globalConcurrency: limits.maxConcurrent,
      partitionConcurrency: limits.maxPerSession,
      minPollingIntervalMs: options.pollingIntervalMs ?? 50,
      ...(options.workerConcurrency ? { workerConcurrency: options.workerConcurrency } : {}),
      onConflict: 'always_update',
    });
    // A team's own workflow runs no model: no limit counts it (its members' spells count above).
    await DBOS.registerQueue(TEAM_QUEUE, {
      minPollingIntervalMs: options.pollingIntervalMs ?? 50,
      onConflict: 'always_update',
    });
    await worker.start(options);
  } catch (error) {
    current = undefined;
    await DBOS.shutdown().catch(() => {});
    await store.close().catch(() => {});
    throw error;
  }
  return worker;
}

function checkLiveness(options: WorkerOptions): void {
  const heartbeatMs = options.heartbeatMs ?? 1_000;
  const deadAfterMs = options.deadAfterMs ?? heartbeatMs * 10;
  if (!(Number.isFinite(heartbeatMs) && heartbeatMs > 0))
    throw new ValidationError(`startWorker: heartbeatMs must be a positive number (got ${heartbeatMs}).`, [
      'heartbeatMs',
    ]);
  if (!(Number.isFinite(deadAfterMs) && deadAfterMs >= heartbeatMs * 2))
    throw new ValidationError(
      `startWorker: deadAfterMs must be at least twice heartbeatMs (${heartbeatMs * 2} ms; got ${deadAfterMs}).`,
      ['deadAfterMs'],
    );
}
