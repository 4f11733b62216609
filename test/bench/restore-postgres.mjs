// Issue #27's claimed-task restore: a runtime over a Postgres store holding N tasks brings back one
// running task by id (`restore({ taskIds })`, what a cluster worker does with a task it claimed and
// the owner watch with a task whose runtime died). The tasks are inserted by one SQL statement
// (postgres-tasks.mjs), all finished but 5 left running; each round opens a new store and runtime
// and restores one of the 5. For several sizes (`node restore-postgres.mjs 10000 100000`), one
// database grows to each in turn, each size with 5 running tasks of its own. A throwaway local
// Postgres is started and removed. Prints a JSON line: per size, the median of its 5 rounds.
// Used by run.ts (BENCH_RESTORE_POSTGRES_TASKS=0 skips it).
import { createRuntime } from '@troupe/core';
import { scriptedModel, textReply } from '@troupe/core/testing';
import { openPostgresStore } from '@troupe/postgres';
import { insertTasks, taskIdOf, withBenchDatabase } from './postgres-tasks.mjs';

const sizes = (process.argv.length > 2 ? process.argv.slice(2) : ['100000']).map(Number);
const ROUNDS = 5;
const agents = [{ name: 'worker', description: 'Works.', systemPrompt: 'You work.', tools: [] }];

/** Restores task `id` with a new store and runtime on `url`, lets it finish; the restore's milliseconds. */
async function restoreOne(url, id) {
  const store = await openPostgresStore({ url });
  const runtime = createRuntime({ model: scriptedModel([textReply('done')]), agents, store });
  const start = performance.now();
  const { restored } = await runtime.restore({ taskIds: [id], ownerCheckMs: 0 });
  const ms = performance.now() - start;
  if (restored.length !== 1 || restored[0] !== id)
    throw new Error(`Restoring ${id} restored ${JSON.stringify(restored)}.`);
  const result = await runtime.result(id);
  if (result?.status !== 'completed') throw new Error(`Task ${id} ended ${result?.status}.`);
  await runtime.shutdown();
  return ms;
}

await withBenchDatabase('restore_bench', async (url) => {
  const rows = [];
  let stored = 0;
  for (const tasks of sizes) {
    if (!(tasks > stored + ROUNDS)) throw new Error(`Sizes must grow by more than ${ROUNDS}: ${sizes}.`);
    // The first ROUNDS tasks of this batch are the running ones this size restores.
    await insertTasks(url, { first: stored + 1, last: tasks, running: ROUNDS });
    const roundsMs = [];
    for (let round = 1; round <= ROUNDS; round++)
      roundsMs.push(await restoreOne(url, taskIdOf(stored + round)));
    rows.push({ tasks, restoreMs: [...roundsMs].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)], roundsMs });
    stored = tasks;
  }
  console.log(JSON.stringify({ restore: rows }));
});
