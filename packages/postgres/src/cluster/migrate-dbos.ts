import { migrateSystemDatabase } from '@dbos-inc/dbos-sdk/internal/system_database';
import { GlobalLogger } from '@dbos-inc/dbos-sdk/internal/telemetry/logs';
import pg from 'pg';
import { withMigrationLock } from '../store/schema.js';

/**
 * Creates or migrates DBOS's system tables under the same advisory lock as troupe's schema:
 * DBOS's own migration is not safe when several processes start at once on a fresh database
 * (two workers race on `CREATE TYPE`).
 */
export async function migrateDbos(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // DBOS.migrate logs to stdout (the answer channel of `troupe run`): run the same migration
    // with a logger that reports errors only (the SDK's exported internal path).
    await withMigrationLock(client, () =>
      migrateSystemDatabase(url, new GlobalLogger(undefined, { logLevel: 'error' })),
    );
  } finally {
    await client.end().catch(() => {});
  }
}
