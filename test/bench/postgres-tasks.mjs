// What the Postgres benches share (history-postgres.mjs, restore-postgres.mjs): a throwaway local
// Postgres with one database, and stored tasks inserted by one SQL statement (one row per task in
// troupe.tasks, as the store writes them), the finished ones with their results.
import { openPostgresStore } from '@troupe/postgres';
import { startTestCluster } from '@troupe/postgres/testing';

/** The spec every bench task is stored with (its id, time, session and agent are the row's). */
const spec = {
  agent: 'worker',
  description: 'Bench task',
  prompt: 'Do the work',
  depth: 1,
  background: false,
  announce: false,
  model: 'scripted',
  system: 'You work.',
  tools: [],
  limits: { maxTurns: 10, tokenBudget: 100_000, timeoutMs: 300_000 },
  graceMs: 30_000,
  messages: [{ role: 'user', content: 'Do the work' }],
};

/** Task `i`'s id: `t` and `i` padded to 8 digits, so ids sort as the tasks were created. */
export const taskIdOf = (i) => `t${String(i).padStart(8, '0')}`;

/**
 * Runs `work` with the URL of a new database `name` on a throwaway local Postgres, removed after.
 */
export async function withBenchDatabase(name, work) {
  const cluster = await startTestCluster();
  try {
    return await work(await cluster.createDatabase(name));
  } finally {
    await cluster.destroy();
  }
}

/**
 * Stores tasks `first`..`last` (created at `i`, updated at `i + 5`, session `s<i % 10>`) through a
 * store opened on `url`, then ANALYZEs the table: the first `running` of them are left running; of
 * the others, every `queuedEvery`-th is queued (0: none) and the rest completed with a result. With
 * `twoAgents`, odd tasks are the `helper` agent's, even ones the `worker`'s (else all `worker`).
 */
export async function insertTasks(url, { first = 1, last, running = 0, queuedEvery = 0, twoAgents = false }) {
  const writer = await openPostgresStore({ url });
  try {
    await writer.pool.query(
      `WITH rows AS (
         SELECT i, 't' || lpad(i::text, 8, '0') AS id, 's' || (i % 10) AS session,
                CASE WHEN $5 AND i % 2 = 1 THEN 'helper' ELSE 'worker' END AS agent,
                CASE WHEN i < $1 + $3 THEN 'running' WHEN $4 > 0 AND i % $4 = 0 THEN 'queued' ELSE 'completed' END AS status
         FROM generate_series($1::int, $2::int) AS i)
       INSERT INTO troupe.tasks (task_id, created_at, session_key, agent, status, updated_at, spec, v, result)
       SELECT id, i, session, agent, status, i + 5,
              ($6::jsonb || jsonb_build_object('taskId', id, 'createdAt', i, 'sessionKey', session, 'agent', agent))::json,
              2,
              CASE WHEN status = 'completed' THEN json_build_object('taskId', id, 'agent', agent,
                'status', 'completed', 'terminateReason', 'GOAL', 'output', 'done', 'turns', 5, 'toolCalls', 4,
                'durationMs', 5, 'model', 'scripted', 'usage', json_build_object('input', 10, 'output', 5, 'total', 15)) END
       FROM rows`,
      [first, last, running, queuedEvery, twoAgents, JSON.stringify(spec)],
    );
    await writer.pool.query('ANALYZE troupe.tasks');
  } finally {
    await writer.close();
  }
}
