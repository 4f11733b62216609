import type { TaskStatusRecord, TaskStore } from '@troupe/core';
import { runTaskStoreSuite } from '@troupe/core/store';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgresStore, type PostgresTaskStore } from '../src/index.js';
import { writeBatch } from '../src/store/write-batch.js';
import { useTestCluster } from './test-cluster.js';

const cluster = useTestCluster();
let databases = 0;
const urls = new Map<TaskStore, string>();
const open: PostgresTaskStore[] = [];
const pg = (store: TaskStore) => store as PostgresTaskStore;

async function openOn(url: string): Promise<PostgresTaskStore> {
  const store = await openPostgresStore({ url });
  urls.set(store, url);
  open.push(store);
  return store;
}

runTaskStoreSuite(
  'Postgres store',
  { describe, it, expect, afterEach },
  {
    async create() {
      return openOn(await cluster.createDatabase(`conformance_${++databases}`));
    },
    async reopen(store) {
      await store.flush();
      return openOn(urls.get(store)!);
    },
    async cleanup() {
      await Promise.all(open.splice(0).map((store) => store.close().catch(() => {})));
      urls.clear();
    },
    raw: {
      // A status record lands in the log and in its task's row, as a write of the store would
      // put it there, unchecked (any version, any shape).
      async putStatusRecord(store, value) {
        await writeBatch(pg(store).pool, {
          statuses: [value as TaskStatusRecord],
          journal: [],
          snapshots: [],
          results: [],
        });
      },
      async putJournalEntry(store, taskId, value) {
        await pg(store).pool.query(
          'INSERT INTO troupe.journal (task_id, seq, entry) VALUES ($1, $2, $3::json)',
          [taskId, (value as { seq: number }).seq, JSON.stringify(value)],
        );
      },
      async putSnapshot(store, taskId, value) {
        await pg(store).pool.query(
          `INSERT INTO troupe.snapshots (task_id, document) VALUES ($1, $2::json)
           ON CONFLICT (task_id) DO UPDATE SET document = EXCLUDED.document`,
          [taskId, JSON.stringify(value)],
        );
      },
      async truncateJournal(store, taskId) {
        // A transaction cannot be torn; the nearest damage a json column holds is the last
        // entry's text cut in half, stored as a string.
        await pg(store).pool.query(
          `UPDATE troupe.journal SET entry = to_json(left(entry::text, length(entry::text) / 2))
           WHERE task_id = $1 AND seq = (SELECT max(seq) FROM troupe.journal WHERE task_id = $1)`,
          [taskId],
        );
      },
    },
  },
);
