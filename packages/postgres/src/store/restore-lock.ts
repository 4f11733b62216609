import { hostname } from 'node:os';
import { PersistenceError } from '@troupe/core';
import pg from 'pg';

/** The restore lock's advisory key, in the two-integer form (`'trup'`, 1): one lock per database. */
const RESTORE_LOCK = [0x74727570, 1] as const;
/** What the lock's session calls itself (`application_name`), so a refused runtime can name it. */
const SESSION_NAME = /^troupe restore: process (\d+) on (.*)$/;
/** Delays between attempts to take the lock again after its connection was lost. */
const RETAKE_DELAYS_MS = [100, 500, 1_000, 2_000, 5_000];

/** The runtime holding a database's restore lock, as Postgres reports its session. */
export interface RestoreLockHolder {
  /** The holder's process id, when its session says (it does unless the URL sets `application_name`). */
  pid?: number;
  host?: string;
  /** When the holder's session connected (ISO 8601). */
  since: string;
  /** The holder's server process (`pg_stat_activity.pid`). */
  backendPid: number;
}

/**
 * A database's restore lock, held by this process (see `TaskStore.lockForRestore`): a
 * session-level advisory lock on a connection of its own. It lives exactly as long as that
 * connection, so a runtime that dies (SIGKILL, a lost machine once TCP keepalive notices) frees
 * it without anyone deleting anything. A connection lost while held (a server restart) is
 * reconnected and the lock taken again in the background.
 */
export class RestoreLock {
  private released = false;
  private retake: NodeJS.Timeout | undefined;

  private constructor(
    private client: pg.Client,
    private readonly url: string,
  ) {
    this.watch(client);
  }

  /**
   * Takes the lock, or throws a `PersistenceError` (`PERSISTENCE_LOCKED`) naming the store
   * (`where`, its redacted URL) and the runtime that holds it. A failure to connect is a
   * `PERSISTENCE_FAILED` naming the store.
   */
  static async take(url: string, where: string): Promise<RestoreLock> {
    for (let attempt = 0; ; attempt++) {
      const client = await connect(url, where);
      let holder: RestoreLockHolder | undefined;
      try {
        if (await tryLock(client)) return new RestoreLock(client, url);
        holder = await findHolder(client);
      } catch (error) {
        await client.end().catch(() => {});
        throw new PersistenceError(
          'PERSISTENCE_FAILED',
          `Could not take the restore lock of the task store at ${where}: ${(error as Error).message}`,
          { cause: error },
        );
      }
      await client.end().catch(() => {});
      // Released between the attempt and the look-up: try again.
      if (!holder && attempt < 3) continue;
      throw lockedError(where, holder);
    }
  }

  /** Gives the lock up (closes its connection). */
  async release(): Promise<void> {
    this.released = true;
    if (this.retake) clearTimeout(this.retake);
    await this.client.end().catch(() => {});
  }

  /** A connection lost while the lock is held (the lock went with it): take it again. */
  private watch(client: pg.Client): void {
    // Without a listener, an 'error' of an idle client (the server ended it) kills the process.
    client.on('error', () => {});
    client.once('end', () => {
      if (!this.released && client === this.client) this.takeAgain(0);
    });
  }

  private takeAgain(attempt: number): void {
    const delay = RETAKE_DELAYS_MS[Math.min(attempt, RETAKE_DELAYS_MS.length - 1)]!;
    this.retake = setTimeout(async () => {
      this.retake = undefined;
      let client: pg.Client | undefined;
      try {
        client = await connect(this.url, '');
        if (!this.released && (await tryLock(client))) {
          this.client = client;
          this.watch(client);
          return;
        }
      } catch {
        // The server is still away.
      }
      await client?.end().catch(() => {});
      // Taken by another runtime meanwhile (its restore saw no holder): it resumes the tasks left
      // unfinished; this runtime's own keep running. Keep trying, in case it lets go.
      if (!this.released) this.takeAgain(attempt + 1);
    }, delay);
    this.retake.unref();
  }
}

async function connect(url: string, where: string): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: url,
    application_name: `troupe restore: process ${process.pid} on ${hostname()}`.slice(0, 63),
    keepAlive: true,
    connectionTimeoutMillis: 10_000,
  });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw new PersistenceError(
      'PERSISTENCE_FAILED',
      `Could not connect to the task store at ${where} to take its restore lock: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return client;
}

async function tryLock(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS got', [
    ...RESTORE_LOCK,
  ]);
  return rows[0]?.got === true;
}

async function findHolder(client: pg.Client): Promise<RestoreLockHolder | undefined> {
  const { rows } = await client.query<{ pid: number; name: string | null; since: Date }>(
    `SELECT a.pid, a.application_name AS name, a.backend_start AS since
     FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE l.locktype = 'advisory' AND l.classid = $1::oid AND l.objid = $2::oid AND l.objsubid = 2
       AND l.granted`,
    [String(RESTORE_LOCK[0]), String(RESTORE_LOCK[1])],
  );
  const row = rows[0];
  if (!row) return undefined;
  const holder: RestoreLockHolder = {
    backendPid: row.pid,
    since: row.since ? new Date(row.since).toISOString() : 'an unknown time',
  };
  const named = SESSION_NAME.exec(row.name ?? '');
  if (named) {
    holder.pid = Number(named[1]);
    holder.host = named[2]!;
  }
  return holder;
}

function lockedError(where: string, holder: RestoreLockHolder | undefined): PersistenceError {
  const who = !holder
    ? 'another runtime'
    : holder.pid !== undefined
      ? `process ${holder.pid} on ${holder.host} (connected since ${holder.since})`
      : `the Postgres session ${holder.backendPid} (connected since ${holder.since})`;
  return new PersistenceError(
    'PERSISTENCE_LOCKED',
    `The task store at ${where} is being restored by ${who}: its unfinished tasks belong to that runtime. Shut it down before restoring here; if it died, its lock went with its database connection and a new restore takes it.`,
    { details: holder ? { holder: { ...holder } } : {} },
  );
}
