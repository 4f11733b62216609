// Issue #27's Postgres history target: a store over a database holding 1,000,000 tasks lists the
// first page (newest first), a filtered page, the next page by cursor, and finds one old task.
// The tasks are inserted by one SQL statement (the store writes them the same way, one row per
// task in troupe.tasks); a throwaway local Postgres is started and removed. Prints a JSON line.
// Used by run.ts (BENCH_HISTORY_POSTGRES_TASKS=0 skips it).
import { openPostgresStore } from '@troupe/postgres';
import { startTestCluster } from '@troupe/postgres/testing';

const tasks = Number(process.argv[2] ?? 1_000_000);
const spec = {
  agent: 'worker',
  description: 'Bench task',
  prompt: 'Do the work',
  depth: 1,
  background: false,
  announce: false,
  model: 'scripted',
  system: 'You work.',
  tools: ['echo'],
  limits: { maxTurns: 10, tokenBudget: 100_000, timeoutMs: 300_000 },
  graceMs: 30_000,
  messages: [{ role: 'user', content: 'Do the work' }],
};

/** Milliseconds `work` takes. */
async function timed(work) {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const cluster = await startTestCluster();
try {
  const url = await cluster.createDatabase('history_bench');
  const writer = await openPostgresStore({ url });
  // Every 7th task still queued, 10 sessions, 2 agents: the filters a history view uses.
  await writer.pool.query(
    `INSERT INTO troupe.tasks (task_id, created_at, session_key, agent, status, updated_at, spec, v, result)
     SELECT 't' || lpad(i::text, 8, '0'), i, 's' || (i % 10), CASE WHEN i % 2 = 0 THEN 'worker' ELSE 'helper' END,
            CASE WHEN i % 7 = 0 THEN 'queued' ELSE 'completed' END, i + 5,
            ($1::jsonb || jsonb_build_object('taskId', 't' || lpad(i::text, 8, '0'), 'createdAt', i,
              'sessionKey', 's' || (i % 10), 'agent', CASE WHEN i % 2 = 0 THEN 'worker' ELSE 'helper' END))::json,
            2,
            CASE WHEN i % 7 = 0 THEN NULL ELSE json_build_object('taskId', 't' || lpad(i::text, 8, '0'),
              'agent', CASE WHEN i % 2 = 0 THEN 'worker' ELSE 'helper' END, 'status', 'completed',
              'terminateReason', 'GOAL', 'output', 'done', 'turns', 5, 'toolCalls', 4, 'durationMs', 5,
              'model', 'scripted', 'usage', json_build_object('input', 10, 'output', 5, 'total', 15)) END
     FROM generate_series(1, $2::int) AS i`,
    [JSON.stringify(spec), tasks],
  );
  await writer.pool.query('ANALYZE troupe.tasks');
  await writer.close();

  // A new store, as a runtime opening the database would have.
  const store = await openPostgresStore({ url });
  let first;
  const firstPageMs = await timed(async () => {
    first = await store.listTasks({});
  });
  // Then warm (the first call also compiles the parsers): medians of 15 rounds, interleaved.
  const [pages, filtered, next, find] = [[], [], [], []];
  for (let round = 0; round < 15; round++) {
    pages.push(await timed(() => store.listTasks({})));
    filtered.push(
      await timed(() => store.listTasks({ agent: 'worker', sessionKey: 's4', status: 'completed' })),
    );
    next.push(await timed(() => store.listTasks({ cursor: first.cursor })));
    find.push(await timed(() => store.getTask('t00000042')));
  }
  if (first.tasks.length === 0 || first.tasks[0].taskId !== `t${String(tasks).padStart(8, '0')}`)
    throw new Error(`The first page does not start with the newest task: ${JSON.stringify(first.tasks[0])}`);
  await store.close();
  console.log(
    JSON.stringify({
      tasks,
      firstPageMs,
      pageMs: median(pages),
      filteredMs: median(filtered),
      nextPageMs: median(next),
      findMs: median(find),
    }),
  );
} finally {
  await cluster.destroy();
}
