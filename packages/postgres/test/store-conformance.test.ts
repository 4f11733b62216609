import type { TaskStatusRecord, TaskStore } from '@troupe/core';
import { runTaskStoreSuite } from '@troupe/core/store';
import { afterEach, describe, expect, it } from 'vitest';
import type { PostgresTaskStore } from '../src/index.js';
import { writeBatch } from '../src/store/write-batch.js';
import { postgresStoreHarness } from './store-harness.js';
import { useTestCluster } from './test-cluster.js';

const cluster = useTestCluster();
const pg = (store: TaskStore) => store as PostgresTaskStore;

runTaskStoreSuite(
  'Postgres store',
  { describe, it, expect, afterEach },
  {
    ...postgresStoreHarness(cluster, 'conformance'),
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
