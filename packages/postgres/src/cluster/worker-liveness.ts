import pg from 'pg';

/** The database's clock in epoch milliseconds: every worker's heartbeat is judged on one clock. */
const NOW_MS = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

/** What a worker's presence in the cluster needs from the worker. */
export interface LivenessOptions {
  url: string;
  workerId: string;
  heartbeatMs: number;
  /** A worker whose heartbeat is older than this is taken for dead. */
  deadAfterMs: number;
  /** Hands dead workers' tasks back to the queue. */
  onDead: (workerIds: string[]) => Promise<void>;
  /** The tasks this worker runs now. */
  owned: () => string[];
  /** Some of them now belong to another worker (this one was taken for dead): give them up. */
  onLost: (taskIds: string[]) => void;
  /** A task it runs was asked to stop (read at each beat, in case the notification was lost). */
  onCancelRequested: (taskId: string, reason: string) => void;
}

/**
 * A worker's presence in the cluster: a row in `troupe.workers` whose heartbeat it upserts every
 * beat (by the database's clock). A worker whose heartbeat is older than `deadAfterMs` is taken
 * for dead, whether its process died, froze or lost its network: its tasks go back to the queue.
 * A worker judges others only after it has itself been connected for `deadAfterMs`, so a Postgres
 * restart (which stalls every heartbeat) makes no live worker look dead. A worker taken for dead
 * that is in fact alive finds its row gone and re-registers, and gives up the tasks another
 * worker has claimed since (their writes are fenced by the store meanwhile).
 */
export class WorkerLiveness {
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private busy = false;
  private connectedAt = 0;

  constructor(private readonly options: LivenessOptions) {}

  get workerId(): string {
    return this.options.workerId;
  }

  async start(): Promise<void> {
    await this.connect();
    await this.heartbeat(this.client!);
    this.timer = setInterval(() => void this.beat(), this.options.heartbeatMs);
  }

  private async connect(): Promise<void> {
    // A beat that hangs (a half-open connection) must not stop the heartbeats for good.
    const client = new pg.Client({
      connectionString: this.options.url,
      connectionTimeoutMillis: this.options.deadAfterMs,
      query_timeout: this.options.deadAfterMs,
    });
    client.on('error', () => {
      if (this.client === client) this.client = undefined;
    });
    await client.connect();
    this.connectedAt = Date.now();
    this.client = client;
  }

  /**
   * Upserts this worker's row: a worker whose row was removed (taken for dead while alive)
   * registers again, so it is judged again should it really die later.
   */
  private async heartbeat(client: pg.Client): Promise<void> {
    await client.query(
      `INSERT INTO troupe.workers (worker_id, lock_key, started_at, heartbeat_at)
       VALUES ($1, 0, ${NOW_MS}, ${NOW_MS})
       ON CONFLICT (worker_id) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at`,
      [this.options.workerId],
    );
  }

  /** Heartbeat, give up tasks lost to other workers (and stop those asked to), then look for dead workers. */
  private async beat(): Promise<void> {
    if (this.stopped || this.busy) return;
    this.busy = true;
    try {
      if (!this.client) await this.connect();
      const client = this.client!;
      await this.heartbeat(client);
      await this.checkOwnership(client);
      // Just (re)connected: the other workers get `deadAfterMs` to reconnect before any is judged.
      if (Date.now() - this.connectedAt < this.options.deadAfterMs) return;
      const stale = await client.query<{ worker_id: string }>(
        `DELETE FROM troupe.workers WHERE worker_id <> $1 AND heartbeat_at < ${NOW_MS} - $2
         RETURNING worker_id`,
        [this.options.workerId, this.options.deadAfterMs],
      );
      const dead = stale.rows.map((row) => row.worker_id);
      if (dead.length) await this.onDeadOrRestore(client, dead);
    } catch {
      // The server is away (restarting): the next beat reconnects.
      const client = this.client;
      this.client = undefined;
      await client?.end().catch(() => {});
    } finally {
      this.busy = false;
    }
  }

  /** Hands the dead workers' tasks over; if that fails, their rows come back for the next beat. */
  private async onDeadOrRestore(client: pg.Client, dead: string[]): Promise<void> {
    try {
      await this.options.onDead(dead);
    } catch (error) {
      await client
        .query(
          `INSERT INTO troupe.workers (worker_id, lock_key, started_at, heartbeat_at)
           SELECT w, 0, 0, 0 FROM unnest($1::text[]) AS u(w) ON CONFLICT (worker_id) DO NOTHING`,
          [dead],
        )
        .catch(() => {});
      throw error;
    }
  }

  private async checkOwnership(client: pg.Client): Promise<void> {
    const owned = this.options.owned();
    if (!owned.length) return;
    const { rows } = await client.query<{ task_id: string; lost: boolean; cancel_requested: string | null }>(
      `SELECT task_id, worker_id IS DISTINCT FROM $2 AS lost, cancel_requested FROM troupe.tasks
       WHERE task_id = ANY($1) AND (worker_id IS DISTINCT FROM $2 OR cancel_requested IS NOT NULL)`,
      [owned, this.options.workerId],
    );
    const lost = rows.filter((row) => row.lost).map((row) => row.task_id);
    if (lost.length) this.options.onLost(lost);
    for (const row of rows)
      if (!row.lost && row.cancel_requested !== null)
        this.options.onCancelRequested(row.task_id, row.cancel_requested);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    const client = this.client;
    this.client = undefined;
    // The row stays: if tasks were left running, a surviving worker sees the heartbeat stale,
    // takes them over, then removes the row.
    await client?.end().catch(() => {});
  }
}
