import { PersistenceError } from '@troupe/core';
import type pg from 'pg';

/** Version of the `troupe` schema this package creates. A database at a higher version is refused. */
export const DATABASE_SCHEMA_VERSION = 3;

/** Migration `n` brings the schema from version `n` to `n + 1`. Never edit a released one. */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE troupe.tasks (
    task_id text PRIMARY KEY,
    created_at bigint NOT NULL,
    session_key text NOT NULL,
    agent text NOT NULL,
    status text NOT NULL,
    updated_at bigint NOT NULL,
    spec json NOT NULL,
    result json
  );
  CREATE INDEX tasks_created ON troupe.tasks (created_at DESC, task_id DESC);
  CREATE INDEX tasks_session ON troupe.tasks (session_key, created_at DESC, task_id DESC);
  CREATE INDEX tasks_status ON troupe.tasks (status, created_at DESC, task_id DESC);
  CREATE INDEX tasks_agent ON troupe.tasks (agent, created_at DESC, task_id DESC);
  CREATE TABLE troupe.status_log (
    id bigserial PRIMARY KEY,
    task_id text NOT NULL,
    record json NOT NULL
  );
  CREATE INDEX status_log_task ON troupe.status_log (task_id, id);
  CREATE TABLE troupe.journal (
    task_id text NOT NULL,
    seq integer NOT NULL,
    entry json NOT NULL,
    PRIMARY KEY (task_id, seq)
  );
  CREATE TABLE troupe.snapshots (task_id text PRIMARY KEY, document json NOT NULL);
  CREATE TABLE troupe.results (task_id text PRIMARY KEY, document json NOT NULL);
  `,
  `
  ALTER TABLE troupe.tasks ADD COLUMN worker_id text, ADD COLUMN cancel_requested text;
  CREATE TABLE troupe.workers (
    worker_id text PRIMARY KEY,
    lock_key bigint NOT NULL,
    started_at bigint NOT NULL,
    heartbeat_at bigint NOT NULL
  );
  `,
  // The schema version of the record that created each task row (its spec), read with the shared
  // parsers as the file store reads its status log: filled from each task's first logged record.
  `
  ALTER TABLE troupe.tasks ADD COLUMN v integer;
  UPDATE troupe.tasks AS task SET v = first.v
  FROM (
    SELECT DISTINCT ON (task_id) task_id, (record->>'v')::int AS v
    FROM troupe.status_log ORDER BY task_id, id
  ) AS first
  WHERE first.task_id = task.task_id;
  UPDATE troupe.tasks SET v = 2 WHERE v IS NULL;
  ALTER TABLE troupe.tasks ALTER COLUMN v SET NOT NULL;
  -- Workers of the previous release, still running during a rolling upgrade, insert rows without
  -- it; they write version-2 records.
  ALTER TABLE troupe.tasks ALTER COLUMN v SET DEFAULT 2;
  `,
];

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
