import pg from 'pg';

/**
 * A dedicated connection that LISTENs on some channels and reconnects (with backoff) when the
 * server goes away, e.g. a Postgres restart. `onReconnect` runs after each reconnection, so a
 * caller can catch up on what it may have missed.
 */
export class NotificationListener {
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  readonly ready: Promise<void>;

  constructor(
    private readonly url: string,
    private readonly channels: readonly string[],
    private readonly onMessage: (channel: string, payload: string) => void,
    private readonly onReconnect: () => void = () => {},
  ) {
    this.ready = this.connect(false);
  }

  private async connect(again: boolean): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.payload !== undefined) this.onMessage(message.channel, message.payload);
    });
    await client.connect();
    for (const channel of this.channels) await client.query(`LISTEN ${channel}`);
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    if (again) this.onReconnect();
  }

  private lost(client: pg.Client): void {
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    client.end().catch(() => {});
    this.schedule(100);
  }

  private schedule(delay: number): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.connect(true).catch(() => this.schedule(Math.min(delay * 2, 2_000)));
    }, delay);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}
