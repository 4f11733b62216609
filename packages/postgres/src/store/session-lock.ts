import { hostname } from 'node:os';
import { PersistenceError } from '@troupe/core';
import pg from 'pg';

/** The restore lock's advisory key, in the two-integer form (`'trup'`, 1): one lock per database. */
const RESTORE_LOCK = [0x74727570, 1] as const;
/**
 * The first half of a runner lock's key (`'trun'`): an open store that has written a status
 * record holds (`RUNNER_LOCKS`, its runner key) while it is open, and stamps its records with it.
 */
export const RUNNER_LOCKS = 0x7472756e;
/** `pg_locks` rows of advisory locks in the two-integer form, in this database. */
export const ADVISORY_LOCKS_HERE = `l.locktype = 'advisory' AND l.objsubid = 2 AND l.granted
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
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
 * A session-level advisory lock this process holds on a connection of its own: a database's
 * restore lock (see `TaskStore.lockForRestore`), or an open store's runner lock (its tasks run
 * here). It lives exactly as long as that connection, so a runtime that dies (SIGKILL, a lost
 * machine once TCP keepalive notices) frees it without anyone deleting anything. A connection
 * lost while held (a server restart) is reconnected and the lock taken again in the background;
 * until then another runtime may take it.
 */
export class SessionLock {
  private released = false;
  private retake: NodeJS.Timeout | undefined;

  private constructor(
    private client: pg.Client,
    private readonly url: string,
    private readonly key: readonly [number, number],
  ) {
    this.watch(client);
  }

  /**
   * Holds the runner lock `key` (see {@link RUNNER_LOCKS}) on a connection of its own, or throws
   * a `PersistenceError` (`PERSISTENCE_FAILED`) naming the store when it cannot connect. Held
   * again after a lost connection, as the restore lock is.
   */
  static async runner(url: string, where: string, key: number): Promise<SessionLock> {
    const client = await connect(url, where);
    try {
      if (await tryLock(client, [RUNNER_LOCKS, key]))
        return new SessionLock(client, url, [RUNNER_LOCKS, key]);
    } catch (error) {
      await client.end().catch(() => {});
      throw new PersistenceError(
        'PERSISTENCE_FAILED',
        `Could not register with the task store at ${where}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    await client.end().catch(() => {});
    throw new PersistenceError(
      'PERSISTENCE_FAILED',
      `Could not register with the task store at ${where}: runner key ${key} is taken.`,
    );
  }

  /**
   * Takes the lock, or throws a `PersistenceError` (`PERSISTENCE_LOCKED`) naming the store
   * (`where`, its redacted URL) and the runtime that holds it. A failure to connect is a
   * `PERSISTENCE_FAILED` naming the store.
   */
  static async restore(url: string, where: string): Promise<SessionLock> {
    for (let attempt = 0; ; attempt++) {
      const client = await connect(url, where);
      let holder: RestoreLockHolder | undefined;
      try {
        if (await tryLock(client, RESTORE_LOCK)) return new SessionLock(client, url, RESTORE_LOCK);
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
        // Released while this was connecting or locking: the new connection is ended below.
        if (!this.released && (await tryLock(client, this.key)) && !this.released) {
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

async function tryLock(client: pg.Client, key: readonly [number, number]): Promise<boolean> {
  const { rows } = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS got', [
    ...key,
  ]);
  return rows[0]?.got === true;
}

async function findHolder(client: pg.Client): Promise<RestoreLockHolder | undefined> {
  const { rows } = await client.query<{ pid: number; name: string | null; since: Date }>(
    `SELECT a.pid, a.application_name AS name, a.backend_start AS since
     FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE ${ADVISORY_LOCKS_HERE} AND l.classid = $1::oid AND l.objid = $2::oid`,
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
