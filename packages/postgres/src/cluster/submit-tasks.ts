import type { DBOSClient } from '@dbos-inc/dbos-sdk';
import { PersistenceError, type TaskSpec, TroupeError } from '@troupe/core';
import { taskEventBase } from '@troupe/core/internal';
import { queuedRecord } from '@troupe/core/store';
import type pg from 'pg';
import { writeBatchWith } from '../store/write-batch.js';
import {
  APPLICATION_VERSION,
  EVENTS_CHANNEL,
  encodeEvent,
  TASK_QUEUE,
  TASK_WORKFLOW,
  type TEAM_QUEUE,
} from './channels.js';

/**
 * Queues planned tasks on the cluster in one transaction: their `task.queued` records, their DBOS
 * workflows on the queue (partition = session; a team's own task on {@link TEAM_QUEUE}, which has
 * no partitions), and the `task.queued` notifications. Rejects with a `PersistenceError` naming the
 * task(s) when Postgres refuses; nothing is queued then.
 */
export async function submitTasks(
  pool: pg.Pool,
  dbos: DBOSClient,
  specs: TaskSpec[],
  queue: typeof TASK_QUEUE | typeof TEAM_QUEUE = TASK_QUEUE,
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await writeBatchWith(client, {
      statuses: specs.map((spec) => queuedRecord(spec)),
      journal: [],
      snapshots: [],
      results: [],
    });
    for (const spec of specs) {
      await dbos.enqueueInTransaction(
        client,
        {
          queueName: queue,
          workflowName: TASK_WORKFLOW,
          workflowID: spec.taskId,
          ...(queue === TASK_QUEUE ? { queuePartitionKey: spec.sessionKey } : {}),
          appVersion: APPLICATION_VERSION,
        },
        spec.taskId,
      );
      const event = Object.assign(taskEventBase(spec, spec.createdAt), { position: -1 });
      await client.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, encodeEvent('task.queued', event)]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error instanceof TroupeError
      ? error
      : new PersistenceError(
          'PERSISTENCE_FAILED',
          `Could not queue ${specs.length === 1 ? `task ${specs[0]!.taskId}` : `${specs.length} tasks`}: ${(error as Error).message}`,
          { cause: error },
        );
  } finally {
    client.release();
  }
}
