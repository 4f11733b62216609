import pg from 'pg';

/** Advisory-lock key of a worker: held by the worker's own connection while it lives. */
function lockKeySql(): string {
  return "hashtextextended('troupe-worker:' || $1, 0)";
}

/**
 * A worker's presence in the cluster: a row in `troupe.workers` with a heartbeat, and a
 * session-level advisory lock held on a dedicated connection. When the process dies (even by
 * SIGKILL) its connection closes and Postgres releases the lock at once; a worker is declared
 * dead only when its lock is free AND its heartbeat is stale, and only by a worker connected for
 * three beats, so a Postgres restart (which drops every lock and stalls every heartbeat) does
 * not make live workers look dead.
 */
export class WorkerLiveness {
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private busy = false;
  private connectedAt = 0;

  constructor(
    private readonly url: string,
    readonly workerId: string,
    private readonly heartbeatMs: number,
    private readonly onDead: (workerIds: string[]) => Promise<void>,
  ) {}

  async start(): Promise<void> {
    await this.connect();
    this.timer = setInterval(() => void this.beat(), this.heartbeatMs);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('error', () => {
      if (this.client === client) this.client = undefined;
    });
    await client.connect();
    await client.query(`SELECT pg_advisory_lock(${lockKeySql()})`, [this.workerId]);
    this.connectedAt = Date.now();
    const now = Date.now();
    await client.query(
      `INSERT INTO troupe.workers (worker_id, lock_key, started_at, heartbeat_at)
       VALUES ($1, ${lockKeySql()}, $2, $2)
       ON CONFLICT (worker_id) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at`,
      [this.workerId, now],
    );
    this.client = client;
  }

  /** Heartbeat, then look for dead workers (lock free, heartbeat older than 3 beats). */
  private async beat(): Promise<void> {
    if (this.stopped || this.busy) return;
    this.busy = true;
    try {
      if (!this.client) await this.connect();
      const client = this.client!;
      const now = Date.now();
      await client.query('UPDATE troupe.workers SET heartbeat_at = $2 WHERE worker_id = $1', [
        this.workerId,
        now,
      ]);
      // Just (re)connected, e.g. after a Postgres restart that dropped every lock: the other
      // workers get three beats to reconnect and heartbeat before any is judged dead.
      if (now - this.connectedAt < this.heartbeatMs * 3) return;
      const stale = await client.query<{ worker_id: string }>(
        'SELECT worker_id FROM troupe.workers WHERE worker_id <> $1 AND heartbeat_at < $2',
        [this.workerId, now - this.heartbeatMs * 3],
      );
      const dead: string[] = [];
      for (const { worker_id: other } of stale.rows) {
        const locked = await client.query<{ got: boolean }>(
          `SELECT pg_try_advisory_lock(${lockKeySql()}) AS got`,
          [other],
        );
        if (locked.rows[0]?.got) dead.push(other);
      }
      if (!dead.length) return;
      try {
        await this.onDead(dead);
        await client.query('DELETE FROM troupe.workers WHERE worker_id = ANY($1)', [dead]);
      } finally {
        for (const other of dead)
          await client.query(`SELECT pg_advisory_unlock(${lockKeySql()})`, [other]).catch(() => {});
      }
    } catch {
      // The server is away (restarting): the next beat reconnects.
      const client = this.client;
      this.client = undefined;
      await client?.end().catch(() => {});
    } finally {
      this.busy = false;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    const client = this.client;
    this.client = undefined;
    // The row stays: if tasks were left running, a surviving worker sees the lock free and the
    // heartbeat stale, takes them over, then removes the row.
    await client?.end().catch(() => {});
  }
}
