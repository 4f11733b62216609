import os from 'node:os';
import { runBareLoop, runTroupe, TURNS_PER_TASK } from './workload.ts';

const TASKS = Number(process.env.BENCH_TASKS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function measure(run: () => Promise<number>, rounds = ROUNDS): Promise<number> {
  await run(); // warm-up
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    globalThis.gc?.();
    times.push(await run());
  }
  return median(times);
}

const perTurn = (ms: number, tasks: number) => (ms * 1000) / (tasks * TURNS_PER_TASK);

const bare = await measure(() => runBareLoop(TASKS));
const troupe = await measure(() => runTroupe(TASKS));
const troupeQuiet = await measure(() => runTroupe(TASKS, { events: false }));
const small = await measure(() => runTroupe(100), 9);
const large = await measure(() => runTroupe(10_000), 3);
globalThis.gc?.();
const rssBefore = process.memoryUsage().rss;
let peak = rssBefore;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 5);
await runTroupe(TASKS);
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);

const rows = [
  ['bare async loop', perTurn(bare, TASKS).toFixed(1), '1.0×'],
  ['troupe (events + memory store)', perTurn(troupe, TASKS).toFixed(1), `${(troupe / bare).toFixed(1)}×`],
  ['troupe (no listeners)', perTurn(troupeQuiet, TASKS).toFixed(1), `${(troupeQuiet / bare).toFixed(1)}×`],
];
console.log(
  `\nMachine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
);
console.log(
  `Workload: ${TASKS} tasks × ${TURNS_PER_TASK} turns, 5 at a time, zero-latency model, one read tool per turn\n`,
);
console.log('| run | µs per turn | vs bare loop |\n|---|---:|---:|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
const perTaskSmall = (small * 1000) / 100;
const perTaskLarge = (large * 1000) / 10_000;
console.log(
  `\nPer-task cost: ${perTaskSmall.toFixed(0)} µs at 100 tasks, ${perTaskLarge.toFixed(0)} µs at 10,000 tasks (${(perTaskLarge / perTaskSmall).toFixed(2)}×)`,
);
console.log(`Peak RSS during ${TASKS} tasks: ${(peak / 2 ** 20).toFixed(0)} MB`);
