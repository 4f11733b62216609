// `pnpm bench`: the DESIGN.md "Performance" workload, each measurement in a fresh process.
import { execFileSync, spawnSync } from 'node:child_process';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Kept in step with workload.mjs (BENCH_TURNS).
const TURNS_PER_TASK = Number(process.env.BENCH_TURNS ?? 5);

const here = dirname(fileURLToPath(import.meta.url));
const TASKS = Number(process.env.BENCH_TASKS ?? 2000);
const ROUNDS = process.env.BENCH_ROUNDS ?? '5';

interface Sample {
  kind: string;
  tasks: number;
  wallMs: number;
  cpuMs: number;
  minWallMs: number;
  peakRssMb: number;
  baselineMb: number;
  bytesWritten: number;
}

/** Runs a bench script in a fresh Node process and parses the JSON of its last line of output. */
function lastJsonLine<T>(args: string[]): T {
  const out = execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').at(-1)!) as T;
}

/** What every history bench prints: the store's size, its first page and one lookup. */
interface HistoryBase {
  tasks: number;
  firstPageMs: number;
  findMs: number;
}
/** What a history bench prints: {@link HistoryBase} and the times `TMore`. */
type HistoryTimes<TMore extends string> = HistoryBase & Record<TMore, number>;

function measure(kind: string, tasks: number, rounds = ROUNDS): Sample {
  return lastJsonLine<Sample>(['--expose-gc', join(here, 'measure.mjs'), kind, String(tasks), rounds]);
}

const perTurn = (sample: Sample, field: 'wallMs' | 'cpuMs' | 'minWallMs' = 'wallMs') =>
  (sample[field] * 1000) / (sample.tasks * TURNS_PER_TASK);
const perTask = (sample: Sample) => (sample.wallMs * 1000) / sample.tasks;

const bare = measure('bare', TASKS);
const xstate = measure('xstate', TASKS);
const troupe = measure('troupe', TASKS);
const quiet = measure('troupe-quiet', TASKS);
const file = measure('troupe-file', TASKS);
const small = measure('troupe', 100, '15');
const large = measure('troupe', 10_000, '3');
const rss = measure('rss', TASKS);
const rssXState = measure('rss-xstate', TASKS);
// The XState floor under troupe's turn: the subagent machine alone, fed the same events.
const machine = measure('machine', TASKS);
// ... and under troupe's supervisor (queue, spawn, stop), still with no runtime around it.
const supervised = measure('supervised', TASKS);
// The cluster row: 2 worker processes on a throwaway local Postgres (BENCH_CLUSTER_TASKS=0 skips it).
const CLUSTER_TASKS = Number(process.env.BENCH_CLUSTER_TASKS ?? TASKS);
const cluster = CLUSTER_TASKS
  ? lastJsonLine<{ tasks: number; workers: number; wallMs: number; clientCpuMs: number }>([
      join(here, 'cluster.mjs'),
      String(CLUSTER_TASKS),
    ])
  : undefined;
// History: a runtime opened on a file store holding 10,000 finished tasks lists them.
const history = lastJsonLine<HistoryTimes<'filteredMs' | 'heapMb'>>([
  join(here, 'history.mjs'),
  String(Number(process.env.BENCH_HISTORY_TASKS ?? 10_000)),
]);
// History at scale: the first page over a file store of 100,000 tasks written through the store API,
// measured in a fresh process (BENCH_HISTORY_STORE_TASKS=0 skips it).
const HISTORY_STORE_TASKS = Number(process.env.BENCH_HISTORY_STORE_TASKS ?? 100_000);
const historyStore = HISTORY_STORE_TASKS
  ? lastJsonLine<HistoryTimes<'nextPageMs' | 'heapMb' | 'rssMb'>>([
      join(here, 'history-store.mjs'),
      String(HISTORY_STORE_TASKS),
    ])
  : undefined;
// History on Postgres: a store over a throwaway local Postgres holding 1,000,000 tasks lists the
// first page, in a fresh process (BENCH_HISTORY_POSTGRES_TASKS=0 skips it).
const HISTORY_POSTGRES_TASKS = Number(process.env.BENCH_HISTORY_POSTGRES_TASKS ?? 1_000_000);
const historyPostgres = HISTORY_POSTGRES_TASKS
  ? lastJsonLine<HistoryTimes<'openMs' | 'pageMs' | 'filteredMs' | 'nextPageMs'>>([
      join(here, 'history-postgres.mjs'),
      String(HISTORY_POSTGRES_TASKS),
    ])
  : undefined;
// Restore on Postgres: a new runtime brings back one claimed task by id over a store of 10,000, then
// 100,000 tasks, in a fresh process (BENCH_RESTORE_POSTGRES_TASKS: the sizes, comma-separated; 0 skips it).
const RESTORE_POSTGRES_TASKS = (process.env.BENCH_RESTORE_POSTGRES_TASKS ?? '10000,100000')
  .split(',')
  .map(Number)
  .filter((tasks) => tasks > 0);
const restorePostgres = RESTORE_POSTGRES_TASKS.length
  ? lastJsonLine<{ restore: { tasks: number; restoreMs: number }[] }>([
      join(here, 'restore-postgres.mjs'),
      ...RESTORE_POSTGRES_TASKS.map(String),
    ]).restore
  : undefined;
// Over its budget, cli-startup exits 1 after printing its line: report it, do not lose the run.
const startup = spawnSync(process.execPath, ['--import', 'tsx', join(here, 'cli-startup.ts')], {
  encoding: 'utf8',
}).stdout.trim();

// Token cost (issue #26): eight scenarios through the runtime and @troupe/anthropic against the fake
// API's prompt-cache simulator (BENCH_TOKEN_COST=0 skips it).
const tokenCostOut =
  process.env.BENCH_TOKEN_COST === '0'
    ? undefined
    : spawnSync(process.execPath, ['--import', 'tsx', join(here, 'token-cost.ts')], {
        encoding: 'utf8',
        maxBuffer: 1 << 22,
      }).stdout.trim();
const tokenCost = tokenCostOut
  ? (JSON.parse(tokenCostOut.split('\n').at(-1)!) as {
      tokenCost: { name: string; actual: number; ideal: number }[];
    })
  : undefined;

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(
  `\nMachine: ${os.cpus().length} cores (${cpu}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.arch()}`,
);
console.log(
  `Workload: ${TASKS} tasks × ${TURNS_PER_TASK} turns, 5 at a time, zero-latency scripted model, one read tool per turn; median of ${ROUNDS} runs after a warm-up, each kind in a fresh process.\n`,
);
console.log('| run | µs per turn (wall) | µs per turn (CPU) | vs bare loop | vs plain XState |');
console.log('|---|---:|---:|---:|---:|');
for (const [name, sample] of [
  ['bare async loop', bare],
  ['plain XState, written the obvious way', xstate],
  ['troupe: events + memory store', troupe],
  ['troupe: no event listeners', quiet],
  ['troupe: events + durable file store', file],
  ['(the subagent machine alone: an XState actor fed the same events, no runtime)', machine],
  ["(the same under troupe's supervisor machine: queue, spawn, stop; no runtime)", supervised],
] as const) {
  console.log(
    `| ${name} | ${perTurn(sample).toFixed(1)} | ${perTurn(sample, 'cpuMs').toFixed(1)} | ${(sample.wallMs / bare.wallMs).toFixed(1)}× | ${(sample.wallMs / xstate.wallMs).toFixed(2)}× |`,
  );
}
if (cluster) {
  const clusterPerTurn = (cluster.wallMs * 1000) / (cluster.tasks * TURNS_PER_TASK);
  console.log(
    `| troupe cluster: ${cluster.workers} workers + a client, local Postgres, DBOS queue (${cluster.tasks} tasks, one run) | ${clusterPerTurn.toFixed(1)} | (in ${cluster.workers + 1} processes and Postgres) | ${(cluster.wallMs / cluster.tasks / (bare.wallMs / bare.tasks)).toFixed(1)}× |`,
  );
  console.log(
    `\nCluster: ${((cluster.tasks * 1000) / cluster.wallMs).toFixed(1)} tasks per second; per-turn cost ${(clusterPerTurn / perTurn(file)).toFixed(1)}× the single-process file store's (target: within 5×).`,
  );
}
console.log(
  `\nPer-task cost (wall): ${perTask(small).toFixed(0)} µs at 100 tasks, ${perTask(large).toFixed(0)} µs at 10,000 tasks (${(perTask(large) / perTask(small)).toFixed(2)}×).`,
);
console.log(
  `File store: ${(file.bytesWritten / (file.tasks * TURNS_PER_TASK)).toFixed(0)} bytes written per turn (${(file.bytesWritten / 2 ** 20).toFixed(1)} MB for ${file.tasks} tasks).`,
);
console.log(
  `History: a new runtime over a file store of ${history.tasks.toLocaleString('en')} finished tasks lists the first page in ${history.firstPageMs.toFixed(0)} ms (reading the status log once), a filtered next page in ${history.filteredMs.toFixed(0)} ms, finds one task in ${history.findMs.toFixed(1)} ms; its index holds ${history.heapMb.toFixed(0)} MB.`,
);
if (historyStore)
  console.log(
    `History at scale: over a file store of ${historyStore.tasks.toLocaleString('en')} tasks (written through the store API), a new runtime lists the first page in ${historyStore.firstPageMs.toFixed(1)} ms and the next in ${historyStore.nextPageMs.toFixed(1)} ms, finds one task in ${historyStore.findMs.toFixed(1)} ms, holding ${historyStore.heapMb.toFixed(1)} MB more heap (${historyStore.rssMb.toFixed(0)} MB more RSS).`,
  );
if (historyPostgres)
  console.log(
    `History on Postgres: over ${historyPostgres.tasks.toLocaleString('en')} tasks, a store opened in ${historyPostgres.openMs.toFixed(1)} ms lists the first page in ${historyPostgres.firstPageMs.toFixed(1)} ms (its first call), then ${historyPostgres.pageMs.toFixed(1)} ms; a filtered page ${historyPostgres.filteredMs.toFixed(1)} ms, the next page ${historyPostgres.nextPageMs.toFixed(1)} ms, one task ${historyPostgres.findMs.toFixed(1)} ms (medians of 15).`,
  );
if (restorePostgres)
  console.log(
    `Restore on Postgres: a new runtime restores one claimed task by id (\`restore({ taskIds })\`) in ${restorePostgres
      .map((row) => `${row.restoreMs.toFixed(0)} ms over ${row.tasks.toLocaleString('en')} stored tasks`)
      .join(', ')} (medians of 5).`,
  );
console.log(startup);
console.log(
  `Peak RSS, ${TASKS} tasks with the memory store: ${rss.peakRssMb.toFixed(0)} MB (the process was ${rss.baselineMb.toFixed(0)} MB before the first task); plain XState on the same workload: ${rssXState.peakRssMb.toFixed(0)} MB.`,
);

// Issue #10's targets, as ratios within this run.
const ratio = (value: number, target: number, lowerIsBetter = true) =>
  `${value.toFixed(2)}× (target ≤ ${target}×: ${lowerIsBetter && value <= target ? 'met' : 'not met'})`;
console.log('\nTargets:');
console.log(
  `- troupe (memory store) vs plain XState, per turn: ${ratio(troupe.wallMs / xstate.wallMs, 0.4)}`,
);
console.log(`- durable file store vs memory store: ${ratio(file.wallMs / troupe.wallMs, 1.5)}`);
if (historyStore)
  console.log(
    `- history over the file store, first page at ${historyStore.tasks.toLocaleString('en')} tasks: ${historyStore.firstPageMs.toFixed(1)} ms (target ≤ 50 ms: ${historyStore.firstPageMs <= 50 ? 'met' : 'not met'}), ${historyStore.heapMb.toFixed(1)} MB extra heap (target ≤ 50 MB: ${historyStore.heapMb <= 50 ? 'met' : 'not met'})`,
  );
if (historyPostgres)
  console.log(
    `- history on Postgres, first page at ${historyPostgres.tasks.toLocaleString('en')} tasks: ${historyPostgres.pageMs.toFixed(1)} ms (target ≤ 20 ms: ${historyPostgres.pageMs <= 20 ? 'met' : 'not met'}; a new store's first call: ${historyPostgres.firstPageMs.toFixed(1)} ms, ${historyPostgres.firstPageMs <= 20 ? 'met' : 'not met'})`,
  );
console.log(
  `- peak RSS for ${TASKS} tasks: ${rss.peakRssMb.toFixed(0)} MB (target ≤ 100 MB: ${rss.peakRssMb <= 100 ? 'met' : 'not met'})`,
);
console.log(`- per-task cost at 10,000 vs 100 tasks: ${ratio(perTask(large) / perTask(small), 1.3)}`);
if (tokenCostOut && tokenCost) {
  const lowest = Math.min(...tokenCost.tokenCost.map((row) => row.ideal / row.actual));
  console.log(
    `- token cost, every scenario at ≥ 98% of the ideal: lowest ${(lowest * 100).toFixed(1)}% (${lowest >= 0.98 ? 'met' : 'not met'})`,
  );
  console.log(
    tokenCostOut
      .split('\n')
      .filter((line) => line.startsWith('|') || line.startsWith('Token cost') || line === '')
      .join('\n'),
  );
}
