import { PersistenceError } from '@troupe/core';
import pg from 'pg';

/** The connection string without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable connection string)';
  }
}

/** Checks that `url` is a postgres:// connection string; throws a clear error otherwise. */
export function checkUrl(url: unknown): string {
  if (typeof url !== 'string' || url.trim() === '')
    throw new PersistenceError(
      'PERSISTENCE_FAILED',
      'A Postgres connection string is required, e.g. postgres://user@localhost:5432/troupe.',
    );
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new PersistenceError(
      'PERSISTENCE_FAILED',
      `Not a Postgres connection string: "${redactUrl(url)}". Expected postgres://user[:password]@host[:port]/database.`,
    );
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw new PersistenceError(
      'PERSISTENCE_FAILED',
      `Not a Postgres connection string: "${redactUrl(url)}" (scheme ${parsed.protocol}). Expected postgres://user[:password]@host[:port]/database.`,
    );
  if (parsed.pathname.length <= 1)
    throw new PersistenceError(
      'PERSISTENCE_FAILED',
      `The connection string ${redactUrl(url)} names no database. Add one: postgres://host:port/<database>.`,
    );
  return url;
}

/** Turns a connection failure into a PersistenceError that says what to do. */
export function connectionError(url: string, error: unknown): PersistenceError {
  const failure = error as { code?: string; message?: string };
  const where = redactUrl(url);
  const database = decodeURIComponent(new URL(url).pathname.slice(1));
  let message: string;
  if (failure.code === '3D000')
    message = `The database "${database}" does not exist on ${where}. Create it first (createdb ${database}).`;
  else if (failure.code === 'ECONNREFUSED')
    message = `Nothing accepts Postgres connections at ${where} (connection refused). Is the server running, on that port?`;
  else if (failure.code === 'ENOTFOUND') message = `The host of ${where} cannot be resolved.`;
  else if (failure.code === '28P01' || failure.code === '28000')
    message = `Postgres refused the credentials of ${where}: ${failure.message}.`;
  else message = `Cannot connect to Postgres at ${where}: ${failure.message ?? String(error)}.`;
  return new PersistenceError('PERSISTENCE_FAILED', message, { cause: error });
}

/**
 * A small pool on `url`. A connection the server ends (a restart, an administrator) is an error
 * the next query on it rejects with; the event itself is absorbed. pg listens for it only while a
 * client sits idle in the pool: a client checked out between two queries (a transaction) would
 * otherwise emit an unhandled 'error' and kill the process.
 */
export function createPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000 });
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}
