// Issue #27's claimed-task restore: a runtime over a Postgres store holding N tasks brings back one
// running task by id (`restore({ taskIds })`, what a cluster worker does with a task it claimed and
// the owner watch with a task whose runtime died). The tasks are inserted by one SQL statement, all
// finished but 5 left running; each round opens a new store and runtime and restores one of the 5.
// A throwaway local Postgres is started and removed. Prints a JSON line: the median of the 5 rounds.
// `node restore-postgres.mjs N` (used by run.ts; BENCH_RESTORE_POSTGRES_TASKS=0 skips it).
import { createRuntime } from '@troupe/core';
import { scriptedModel, textReply } from '@troupe/core/testing';
import { openPostgresStore } from '@troupe/postgres';
import { startTestCluster } from '@troupe/postgres/testing';

const tasks = Number(process.argv[2] ?? 100_000);
const ROUNDS = 5;
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
const agents = [{ name: 'worker', description: 'Works.', systemPrompt: 'You work.', tools: [] }];
/** Task `i` of the store; tasks 1..ROUNDS are the running ones. */
const idOf = (i) => `t${String(i).padStart(8, '0')}`;

const cluster = await startTestCluster();
try {
  const url = await cluster.createDatabase('restore_bench');
  const writer = await openPostgresStore({ url });
  await writer.pool.query(
    `INSERT INTO troupe.tasks (task_id, created_at, session_key, agent, status, updated_at, spec, v, result)
     SELECT 't' || lpad(i::text, 8, '0'), i, 's' || (i % 10), 'worker',
            CASE WHEN i <= $3 THEN 'running' ELSE 'completed' END, i + 5,
            ($1::jsonb || jsonb_build_object('taskId', 't' || lpad(i::text, 8, '0'), 'createdAt', i,
              'sessionKey', 's' || (i % 10)))::json,
            2,
            CASE WHEN i <= $3 THEN NULL ELSE json_build_object('taskId', 't' || lpad(i::text, 8, '0'),
              'agent', 'worker', 'status', 'completed', 'terminateReason', 'GOAL', 'output', 'done',
              'turns', 5, 'toolCalls', 4, 'durationMs', 5, 'model', 'scripted',
              'usage', json_build_object('input', 10, 'output', 5, 'total', 15)) END
     FROM generate_series(1, $2::int) AS i`,
    [JSON.stringify(spec), tasks, ROUNDS],
  );
  await writer.pool.query('ANALYZE troupe.tasks');
  await writer.close();

  const times = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const store = await openPostgresStore({ url });
    const runtime = createRuntime({ model: scriptedModel([textReply('done')]), agents, store });
    const start = performance.now();
    const { restored } = await runtime.restore({ taskIds: [idOf(round)], ownerCheckMs: 0 });
    times.push(performance.now() - start);
    if (restored.length !== 1 || restored[0] !== idOf(round))
      throw new Error(`Round ${round} restored ${JSON.stringify(restored)}, not ${idOf(round)}.`);
    const result = await runtime.result(idOf(round));
    if (result?.status !== 'completed') throw new Error(`Task ${idOf(round)} ended ${result?.status}.`);
    await runtime.shutdown();
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(JSON.stringify({ tasks, restoreMs: sorted[Math.floor(ROUNDS / 2)], roundsMs: times }));
} finally {
  await cluster.destroy();
}
