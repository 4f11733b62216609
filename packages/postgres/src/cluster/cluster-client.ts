import { DBOSClient } from '@dbos-inc/dbos-sdk';
import {
  type CreateTeamOptions,
  createRuntime,
  createTaskId,
  type FollowUpOptions,
  isFinalTaskEvent,
  type ModelAdapter,
  type Runtime,
  type RuntimeEventName,
  type RuntimeEvents,
  type SpawnOptions,
  type TaskClient,
  type TaskHandle,
  type TaskHistoryPage,
  type TaskInfo,
  type TaskListFilter,
  type TaskQuery,
  type TaskResult,
  type TaskSpec,
  TroupeError,
  ValidationError,
} from '@troupe/core';
import { followUp, loadTeamHosting, prepareTask, storedTaskInfo, taskPlannerOf } from '@troupe/core/internal';
import { isFinalStatus } from '@troupe/core/store';
import { checkUrl, connectionError } from '../store/connect.js';
import { openPostgresStore, type PostgresTaskStore } from '../store/postgres-store.js';
import { cancelTasks } from './cancel-tasks.js';
import {
  CONTROL_CHANNEL,
  type ControlMessage,
  EVENTS_CHANNEL,
  type EventMessage,
  MAX_CONTROL_BYTES,
  TEAM_QUEUE,
} from './channels.js';
import { type ClusterOptions, clusterLimits } from './cluster-options.js';
import { type ClusterTeamHandle, storedTeamState } from './cluster-teams.js';
import { migrateDbos } from './migrate-dbos.js';
import { NotificationListener } from './notification-listener.js';
import { submitTasks } from './submit-tasks.js';

/** A client never runs a model: it submits to the cluster's workers. */
const noModel: ModelAdapter = {
  generate: () => Promise.reject(new TroupeError('MODEL_NOT_CONFIGURED', 'A cluster client runs no tasks.')),
};

/** Options of {@link connectCluster}. */
export interface ClusterClientOptions extends ClusterOptions {
  /** Task id generator (ids must be unique in the cluster). */
  createId?: () => string;
  /** How often unfinished handles are checked against the store, in case a notification was missed. Default 1,000 ms. */
  pollMs?: number;
}

/**
 * The {@link TaskClient} of a troupe cluster, from any process (a worker's or one that runs no
 * tasks): `spawn` validates like the local runtime and enqueues the task's DBOS workflow;
 * `find`/`history` (and `get`/`list`) read the store (indexed); `result` waits for any task of the
 * cluster; `cancel`, `cancelSession`, `steer`, `approve` and `deny` reach the worker running the
 * task; `on` delivers the events of every worker. Reads and control calls are asynchronous here:
 * they go to Postgres.
 */
export class ClusterClient implements TaskClient {
  readonly store: PostgresTaskStore;
  private readonly dbos: DBOSClient;
  private readonly planner: Runtime;
  private readonly listener: NotificationListener;
  /** Results awaited here (tasks spawned here, and tasks `result` was asked for), by task id. */
  private readonly handles = new Map<
    string,
    { promise: Promise<TaskResult>; resolve: (result: TaskResult) => void }
  >();
  /** Submissions not yet committed: a cancellation from this client waits for them. */
  private readonly submissions = new Set<Promise<void>>();
  private pending: TaskSpec[] = [];
  private batch: Promise<void> | undefined;
  private readonly listeners = new Map<string, Set<(event: never) => void>>();
  private readonly createId: () => string;
  private readonly poller: NodeJS.Timeout;
  private closed = false;

  /** @internal Use {@link connectCluster}. */
  constructor(
    options: ClusterClientOptions,
    store: PostgresTaskStore,
    dbos: DBOSClient,
    listener: (client: ClusterClient) => NotificationListener,
  ) {
    this.store = store;
    this.dbos = dbos;
    const { maxPerSession: _perSession, ...limits } = clusterLimits(options.limits);
    this.planner = createRuntime({
      model: noModel,
      agents: options.agents ?? [],
      tools: options.tools ?? [],
      limits,
      ...(options.models ? { models: options.models } : {}),
    });
    this.createId = options.createId ?? createTaskId;
    this.listener = listener(this);
    this.poller = setInterval(() => void this.catchUp(), options.pollMs ?? 1_000);
    this.poller.unref();
  }

  /** @internal */
  get ready(): Promise<void> {
    return this.listener.ready;
  }

  /**
   * Submits a task to the cluster. Bad input throws synchronously, as in the local runtime.
   * `result` resolves when a worker ends the task; it rejects only if the task could not be queued.
   */
  spawn(options: SpawnOptions): TaskHandle {
    this.assertOpen();
    return this.enqueue(prepareTask(taskPlannerOf(this.planner), options, this.createId()).spec);
  }

  /**
   * Continues a finished task's conversation, as `Runtime.followUp` does: the new task's spec
   * carries the conversation read from the store (`followUpOf` names the task it continues) and is
   * queued like a spawn, so any worker runs it. Rejects with `TASK_NOT_FOUND`, `TASK_AMBIGUOUS`,
   * `TASK_RUNNING` (use `steer`), or what `spawn` throws.
   */
  async followUp(target: string, message: string, options: FollowUpOptions = {}): Promise<TaskHandle> {
    this.assertOpen();
    const planner = taskPlannerOf(this.planner);
    return followUp(
      {
        store: this.store,
        agents: planner.agents,
        // The store says whether a task of the cluster has ended; no task runs in this client.
        liveStatus: () => undefined,
        spawnInternal: (spawn) => {
          this.assertOpen();
          return this.enqueue(prepareTask(planner, spawn, this.createId()).spec);
        },
      },
      target,
      message,
      options,
    );
  }

  /** Queues a planned task with this event-loop turn's batch; its handle's result waits for a worker to end it. */
  private enqueue(spec: TaskSpec): TaskHandle {
    const ended = this.awaitResult(spec.taskId);
    const result = new Promise<TaskResult>((resolve, reject) => {
      ended.then(resolve);
      this.submission().then(undefined, (error) => {
        this.handles.delete(spec.taskId);
        reject(error);
      });
    });
    this.pending.push(spec);
    return { id: spec.taskId, result };
  }

  /** The commit of the current batch of spawns: spawns of one event-loop turn share a transaction. */
  private submission(): Promise<void> {
    if (this.batch) return this.batch;
    const batch = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.batch = undefined;
      const specs = this.pending;
      this.pending = [];
      return submitTasks(this.store.pool, this.dbos, specs);
    });
    this.batch = batch;
    this.submissions.add(batch);
    void batch.then(
      () => this.submissions.delete(batch),
      () => this.submissions.delete(batch),
    );
    return batch;
  }

  /**
   * Queues an agent team on the cluster (the options of `Runtime.createTeam`): a worker hosts it
   * (its journal, mailbox and task list) and its members' spells are tasks any worker may run; their
   * messages and task-list changes go through the store. Rejects on bad options (validated here, as
   * the local runtime does) or if the team could not be queued. See the decision record
   * `2026-11-26-agent-teams.md`, "Across workers".
   */
  async createTeam(options: CreateTeamOptions): Promise<ClusterTeamHandle> {
    this.assertOpen();
    const kit = await loadTeamHosting();
    const config = kit.teamConfigFrom(options, (agent) => this.planner.agents.require(agent).name);
    const spec = kit.teamSpec(this.createId(), config, Date.now());
    const teamId = spec.taskId;
    const ended = this.awaitResult(teamId);
    const submitted = submitTasks(this.store.pool, this.dbos, [spec], TEAM_QUEUE);
    this.submissions.add(submitted);
    try {
      await submitted;
    } catch (error) {
      this.handles.delete(teamId);
      throw error;
    } finally {
      this.submissions.delete(submitted);
    }
    const state = () => storedTeamState(kit, this.store, teamId);
    return {
      id: teamId,
      result: ended.then(async (task) => {
        const folded = await state();
        // Ended before a worker hosted it (cancelled while queued, quarantined): its task says how.
        if (folded.ended) return kit.teamResultOf(folded);
        const status = task.status === 'completed' ? 'failed' : task.status;
        const message =
          task.error?.message ?? `Team ${teamId} ended ${task.status} before a worker hosted it.`;
        const terminateReason = status === 'cancelled' ? 'ABORTED' : 'ERROR';
        return kit.teamResultOf({ ...folded, ended: { status, terminateReason, message } });
      }),
      state,
      cancel: (reason) => this.cancel(teamId, reason),
    };
  }

  /** A task's information from the store, or undefined. */
  async find(id: string): Promise<TaskInfo | undefined> {
    const task = await this.store.getTask(id);
    return task ? storedTaskInfo(task) : undefined;
  }

  /** The same as {@link find}. */
  get(id: string): Promise<TaskInfo | undefined> {
    return this.find(id);
  }

  /** The cluster's tasks, newest first, filtered and paged by cursor (an indexed query). */
  async history(query: TaskQuery = {}): Promise<TaskHistoryPage> {
    const page = await this.store.listTasks(query);
    const tasks = page.tasks.map(storedTaskInfo);
    return page.cursor === undefined ? { tasks } : { tasks, cursor: page.cursor };
  }

  /**
   * A task's result: resolves when a worker ends the task (at once if it has ended). Undefined
   * for a task the cluster does not know. Never rejects for a task failure.
   */
  async result(id: string): Promise<TaskResult | undefined> {
    const waiting = this.handles.get(id);
    if (waiting) return waiting.promise;
    const task = await this.store.getTask(id);
    if (!task) return undefined;
    if (isFinalStatus(task.status)) return task.result ?? (await this.store.loadResult(id));
    const ended = this.awaitResult(id);
    // It may have ended between the read and now: look once more.
    void this.catchUp([id]);
    return ended;
  }

  /** A promise of `taskId`'s result, settled by its final event or by {@link catchUp}. */
  private awaitResult(taskId: string): Promise<TaskResult> {
    const known = this.handles.get(taskId);
    if (known) return known.promise;
    let resolve!: (result: TaskResult) => void;
    const promise = new Promise<TaskResult>((done) => {
      resolve = done;
    });
    this.handles.set(taskId, { promise, resolve });
    return promise;
  }

  /** Tasks, newest first, filtered (an indexed query). Default limit 100. */
  async list(filter: TaskListFilter = {}): Promise<TaskInfo[]> {
    const status = filter.active ? (['queued', 'running', 'awaitingApproval'] as const) : filter.status;
    const { tasks } = await this.store.query({
      ...(status ? { status } : {}),
      ...(filter.agent ? { agent: filter.agent } : {}),
      ...(filter.sessionKey ? { sessionKey: filter.sessionKey } : {}),
      limit: filter.limit ?? 100,
    });
    return tasks.map(storedTaskInfo);
  }

  /** Cancels a queued or running task on whichever worker holds it. False if unknown or ended. */
  async cancel(id: string, reason = 'The task was cancelled.'): Promise<boolean> {
    this.assertOpen();
    await Promise.all(this.submissions);
    const outcome = await cancelTasks(this.store.pool, { taskId: id }, reason);
    await this.afterCancel(
      outcome.queued,
      outcome.running.length ? { type: 'cancel', taskId: id, reason } : undefined,
    );
    return outcome.queued.length + outcome.running.length > 0;
  }

  /** Cancels every queued and running task of a session, on every worker. Returns how many. */
  async cancelSession(sessionKey: string, reason = 'The session was cancelled.'): Promise<number> {
    this.assertOpen();
    await Promise.all(this.submissions);
    const outcome = await cancelTasks(this.store.pool, { sessionKey }, reason);
    await this.afterCancel(
      outcome.queued,
      outcome.running.length ? { type: 'cancelSession', sessionKey, reason } : undefined,
    );
    return outcome.queued.length + outcome.running.length;
  }

  private async afterCancel(queued: string[], message: ControlMessage | undefined): Promise<void> {
    // Queued workflows leave the queue (a worker that dequeued one meanwhile finds it ended).
    if (queued.length) await this.dbos.cancelWorkflows(queued);
    if (message) await this.sendControl(message);
  }

  /**
   * Sends a message to a queued or running task, wherever it runs (it sees it at its next turn
   * boundary). Rejects with a `ValidationError` for an empty message or one too long for a
   * notification (about 7,000 bytes), `TASK_NOT_FOUND` for a task the cluster does not know, and
   * `TASK_ENDED` for one that has ended.
   */
  async steer(id: string, text: string): Promise<void> {
    this.assertOpen();
    if (typeof text !== 'string' || text.trim() === '')
      throw new ValidationError('steer: the message must be a non-empty string.', ['text']);
    const message: ControlMessage = { type: 'steer', taskId: id, text };
    // Room for the worker id added below.
    if (Buffer.byteLength(JSON.stringify(message)) > MAX_CONTROL_BYTES - 300)
      throw new ValidationError(
        `steer: the message to task ${id} is ${Buffer.byteLength(text)} bytes; a cluster carries at most about ${MAX_CONTROL_BYTES - 400} bytes (one Postgres notification).`,
        ['text'],
      );
    await Promise.all(this.submissions);
    const { rows } = await this.store.pool.query<{ status: string; worker_id: string | null }>(
      'SELECT status, worker_id FROM troupe.tasks WHERE task_id = $1',
      [id],
    );
    const row = rows[0];
    if (!row) throw new TroupeError('TASK_NOT_FOUND', `steer: the cluster has no task "${id}".`);
    if (isFinalStatus(row.status))
      throw new TroupeError(
        'TASK_ENDED',
        `steer: task ${id} has already ended (${row.status}); start a new task instead.`,
      );
    // A claimed task's worker alone takes it; a queued one's message waits on every worker for it.
    await this.sendControl(row.worker_id ? { ...message, worker: row.worker_id } : message);
  }

  /** Approves a pending tool call, wherever its task runs. `always` remembers the tool for the session on that worker. */
  async approve(approvalId: string, options: { always?: boolean } = {}): Promise<void> {
    await this.sendControl({ type: 'approve', approvalId, ...(options.always ? { always: true } : {}) });
  }

  /** Denies a pending tool call; the model gets the reason as an error tool result. */
  async deny(approvalId: string, reason?: string): Promise<void> {
    await this.sendControl(reason ? { type: 'deny', approvalId, reason } : { type: 'deny', approvalId });
  }

  private async sendControl(message: ControlMessage): Promise<void> {
    await this.store.pool.query('SELECT pg_notify($1, $2)', [CONTROL_CHANNEL, JSON.stringify(message)]);
  }

  /** Subscribes to an event of any worker of the cluster; returns an unsubscribe function. */
  on<TName extends RuntimeEventName>(
    name: TName,
    listener: (event: RuntimeEvents[TName]) => void,
  ): () => void {
    const set = this.listeners.get(name) ?? new Set();
    this.listeners.set(name, set);
    set.add(listener as (event: never) => void);
    return () => set.delete(listener as (event: never) => void);
  }

  /** @internal A notification from the events channel. */
  receive(payload: string): void {
    let message: EventMessage;
    try {
      message = JSON.parse(payload) as EventMessage;
    } catch {
      return;
    }
    const { name, event } = message;
    for (const listener of this.listeners.get(name) ?? []) {
      try {
        (listener as (event: unknown) => void)(event);
      } catch {}
    }
    if (isFinalTaskEvent(name)) {
      const taskId = (event as { taskId: string }).taskId;
      const result = (event as { result?: TaskResult }).result;
      if (result && !message.truncated) this.settle(taskId, result);
      else void this.catchUp([taskId]);
    }
  }

  private settle(taskId: string, result: TaskResult): void {
    const waiting = this.handles.get(taskId);
    this.handles.delete(taskId);
    waiting?.resolve(result);
  }

  /** Settles handles whose task ended without this client hearing of it (a missed notification). */
  private async catchUp(ids: string[] = [...this.handles.keys()]): Promise<void> {
    if (!ids.length || this.closed) return;
    try {
      const { rows } = await this.store.pool.query<{ task_id: string; result: TaskResult }>(
        'SELECT task_id, result FROM troupe.tasks WHERE task_id = ANY($1) AND result IS NOT NULL',
        [ids],
      );
      for (const row of rows) this.settle(row.task_id, row.result);
    } catch {
      // The server is away; the next poll tries again.
    }
  }

  private assertOpen(): void {
    if (this.closed)
      throw new TroupeError('RUNTIME_STOPPED', 'This cluster client is closed; connect again.');
  }

  /** Closes the connections. Tasks go on in the cluster. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.poller);
    await this.listener.close();
    await this.dbos.destroy();
    await this.planner.shutdown();
    await this.store.close();
  }
}

/**
 * Connects to a troupe cluster (creating or migrating its schema and DBOS's system tables if
 * needed). Throws a clear `PersistenceError`, having written nothing, for a bad connection
 * string, an unreachable server, a missing database or a newer schema.
 */
export async function connectCluster(options: ClusterClientOptions): Promise<ClusterClient> {
  const url = checkUrl(options.postgres);
  const store = await openPostgresStore({ url });
  let dbos: DBOSClient | undefined;
  try {
    await migrateDbos(url);
    dbos = await DBOSClient.create({ systemDatabaseUrl: url, systemDatabasePoolSize: 2 });
    const client = new ClusterClient(
      options,
      store,
      dbos,
      (self) =>
        new NotificationListener(
          url,
          [EVENTS_CHANNEL],
          (_channel, payload) => self.receive(payload),
          () => void 0,
        ),
    );
    await client.ready;
    return client;
  } catch (error) {
    await dbos?.destroy().catch(() => {});
    await store.close().catch(() => {});
    if (error instanceof TroupeError) throw error;
    throw connectionError(url, error);
  }
}
