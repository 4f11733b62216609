// Issue #27's Postgres history target: a store over a database holding 1,000,000 tasks lists the
// first page (newest first), a filtered page, the next page by cursor, and finds one old task.
// The tasks are inserted by one SQL statement (postgres-tasks.mjs); a throwaway local Postgres is
// started and removed. Prints a JSON line. Used by run.ts (BENCH_HISTORY_POSTGRES_TASKS=0 skips it).
import { openPostgresStore } from '@troupe/postgres';
import { insertTasks, taskIdOf, withBenchDatabase } from './postgres-tasks.mjs';

const tasks = Number(process.argv[2] ?? 1_000_000);

/** Milliseconds `work` takes. */
async function timed(work) {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

await withBenchDatabase('history_bench', async (url) => {
  // Every 7th task still queued, 10 sessions, 2 agents: the filters a history view uses.
  await insertTasks(url, { last: tasks, queuedEvery: 7, twoAgents: true });

  // A new store, as a runtime opening the database would have.
  let store;
  const openMs = await timed(async () => {
    store = await openPostgresStore({ url });
  });
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
    find.push(await timed(() => store.getTask(taskIdOf(42))));
  }
  if (first.tasks.length === 0 || first.tasks[0].taskId !== taskIdOf(tasks))
    throw new Error(`The first page does not start with the newest task: ${JSON.stringify(first.tasks[0])}`);
  await store.close();
  console.log(
    JSON.stringify({
      tasks,
      openMs,
      firstPageMs,
      pageMs: median(pages),
      filteredMs: median(filtered),
      nextPageMs: median(next),
      findMs: median(find),
    }),
  );
});
