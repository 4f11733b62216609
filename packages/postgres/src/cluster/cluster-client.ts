import { DBOSClient } from '@dbos-inc/dbos-sdk';
import {
  createRuntime,
  type ModelAdapter,
  PersistenceError,
  type Runtime,
  type RuntimeEventName,
  type RuntimeEvents,
  type SpawnOptions,
  type TaskHandle,
  type TaskInfo,
  type TaskListFilter,
  type TaskResult,
  type TaskSpec,
  TroupeError,
} from '@troupe/core';
import { prepareTask, taskPlannerOf } from '@troupe/core/internal';
import { queuedRecord } from '@troupe/core/store';
import { checkUrl, connectionError } from '../store/connect.js';
import { openPostgresStore, type PostgresTaskStore } from '../store/postgres-store.js';
import { writeBatchWith } from '../store/write-batch.js';
import { cancelTasks } from './cancel-tasks.js';
import {
  APPLICATION_VERSION,
  CONTROL_CHANNEL,
  type ControlMessage,
  EVENTS_CHANNEL,
  type EventMessage,
  encodeEvent,
  TASK_QUEUE,
  TASK_WORKFLOW,
} from './channels.js';
import { type ClusterOptions, clusterLimits } from './cluster-options.js';
import { migrateDbos } from './migrate-dbos.js';
import { NotificationListener } from './notification-listener.js';
import { queuedEventBase, taskInfo } from './task-info.js';

/** A client never runs a model: it submits to the cluster's workers. */
const noModel: ModelAdapter = {
  generate: () => Promise.reject(new TroupeError('MODEL_NOT_CONFIGURED', 'A cluster client runs no tasks.')),
};

const FINAL = new Set(['task.completed', 'task.failed', 'task.cancelled']);

let idCounter = 0;
/**
 * Task ids that sort in creation order within a client (DBOS breaks ties between workflows
 * enqueued in the same millisecond by id, so this keeps a session's queue FIFO), ending in ~100
 * random bits like the local runtime's, so an id cannot be guessed.
 */
function orderedId(): string {
  idCounter = (idCounter + 1) % 1_679_616;
  const random = new Uint32Array(4);
  crypto.getRandomValues(random);
  const suffix = Array.from(random, (word) => word.toString(36).padStart(7, '0').slice(-5)).join('');
  return `t_${Date.now().toString(36)}${idCounter.toString(36).padStart(4, '0')}${suffix}`;
}

/** Options of {@link connectCluster}. */
export interface ClusterClientOptions extends ClusterOptions {
  /** Task id generator (ids must be unique in the cluster). */
  createId?: () => string;
  /** How often unfinished handles are checked against the store, in case a notification was missed. Default 1,000 ms. */
  pollMs?: number;
}

/**
 * The runtime API of a troupe cluster, from any process (a worker's or one that runs no tasks):
 * `spawn` validates like the local runtime and enqueues the task's DBOS workflow; `get`/`list`
 * read the store (indexed); `cancel`, `cancelSession`, `approve` and `deny` reach the worker
 * running the task; `on` delivers the events of every worker. Reads and control calls are
 * asynchronous here: they go to Postgres.
 */
export class ClusterClient {
  readonly store: PostgresTaskStore;
  private readonly dbos: DBOSClient;
  private readonly planner: Runtime;
  private readonly listener: NotificationListener;
  private readonly handles = new Map<string, (result: TaskResult) => void>();
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
    this.createId = options.createId ?? orderedId;
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
    const { spec } = prepareTask(taskPlannerOf(this.planner), options, this.createId());
    const result = new Promise<TaskResult>((resolve, reject) => {
      this.handles.set(spec.taskId, resolve);
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
      return this.submit(specs);
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
   * In one transaction: the `task.queued` records, the tasks' DBOS workflows on the queue
   * (partition = session), and the `task.queued` notifications.
   */
  private async submit(specs: TaskSpec[]): Promise<void> {
    const client = await this.store.pool.connect();
    try {
      await client.query('BEGIN');
      await writeBatchWith(client, {
        statuses: specs.map((spec) => queuedRecord(spec)),
        journal: [],
        snapshots: [],
        results: [],
      });
      for (const spec of specs) {
        await this.dbos.enqueueInTransaction(
          client,
          {
            queueName: TASK_QUEUE,
            workflowName: TASK_WORKFLOW,
            workflowID: spec.taskId,
            queuePartitionKey: spec.sessionKey,
            appVersion: APPLICATION_VERSION,
          },
          spec.taskId,
        );
        const event = Object.assign(queuedEventBase(spec, spec.createdAt), { position: -1 });
        await client.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, encodeEvent('task.queued', event)]);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error instanceof TroupeError
        ? error
        : new PersistenceError(
            'PERSISTENCE_FAILED',
            `Could not queue ${specs.length === 1 ? `task ${specs[0]!.taskId}` : `${specs.length} tasks`}: ${(error as Error).message}`,
            { cause: error },
          );
    } finally {
      client.release();
    }
  }

  /** A task's information from the store, or undefined. */
  async get(id: string): Promise<TaskInfo | undefined> {
    const task = await this.store.get(id);
    return task ? taskInfo(task) : undefined;
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
    return tasks.map(taskInfo);
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
    if (FINAL.has(name)) {
      const taskId = (event as { taskId: string }).taskId;
      const result = (event as { result?: TaskResult }).result;
      if (result && !message.truncated) this.settle(taskId, result);
      else void this.catchUp([taskId]);
    }
  }

  private settle(taskId: string, result: TaskResult): void {
    const resolve = this.handles.get(taskId);
    this.handles.delete(taskId);
    resolve?.(result);
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
