import { PersistenceError } from '@troupe/core';
import type pg from 'pg';
import { MIGRATIONS } from './migrations.js';

/** Version of the `troupe` schema this package creates. A database at a higher version is refused. */
export const DATABASE_SCHEMA_VERSION = MIGRATIONS.length;

/** Lock id serialising migrations between processes (any constant; "troupe" in ASCII). */
const MIGRATION_LOCK = 0x74726f757065;

/**
 * Creates the `troupe` schema or migrates it to {@link DATABASE_SCHEMA_VERSION}, in one
 * transaction under an advisory lock (several workers may start at once). Refuses, writing
 * nothing, a schema written by a newer version of this package.
 */
export async function ensureSchema(client: pg.ClientBase, where: string): Promise<void> {
  await withMigrationLock(client, () => migrate(client, where));
}

/**
 * Runs `work` holding the migration lock (a session-level advisory lock). The lock is polled
 * with `pg_try_advisory_lock`, never waited for inside a statement: a session blocked in a
 * statement holds a snapshot, and DBOS's `CREATE INDEX CONCURRENTLY` waits for every such
 * session, so a blocking wait would deadlock two workers starting at once.
 */
export async function withMigrationLock<T>(client: pg.ClientBase, work: () => Promise<T>): Promise<T> {
  for (;;) {
    const { rows } = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1) AS got', [
      MIGRATION_LOCK,
    ]);
    if (rows[0]?.got) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  try {
    return await work();
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
  }
}

async function migrate(client: pg.ClientBase, where: string): Promise<void> {
  await client.query('BEGIN');
  try {
    const exists = await client.query<{ found: string | null }>("SELECT to_regclass('troupe.meta') AS found");
    let version = 0;
    if (exists.rows[0]?.found) {
      const found = await client.query<{ value: string }>(
        "SELECT value FROM troupe.meta WHERE key = 'schema_version'",
      );
      version = Number(found.rows[0]?.value ?? 0);
    }
    if (version > DATABASE_SCHEMA_VERSION) {
      throw new PersistenceError(
        'PERSISTENCE_VERSION',
        `The troupe schema in ${where} is version ${version}, written by a newer @troupe/postgres (this one reads up to ${DATABASE_SCHEMA_VERSION}). Upgrade @troupe/postgres; nothing was written.`,
      );
    }
    if (version === 0) {
      await client.query('CREATE SCHEMA IF NOT EXISTS troupe');
      await client.query(
        'CREATE TABLE IF NOT EXISTS troupe.meta (key text PRIMARY KEY, value text NOT NULL)',
      );
    }
    for (let next = version; next < DATABASE_SCHEMA_VERSION; next++) await client.query(MIGRATIONS[next]!);
    if (version < DATABASE_SCHEMA_VERSION)
      await client.query(
        `INSERT INTO troupe.meta (key, value) VALUES ('schema_version', $1)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
        [String(DATABASE_SCHEMA_VERSION)],
      );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
