// Startup time of the built `troupe` command: spawns `node apps/cli/dist/bin.js --help` RUNS times
// (default 20, env CLI_STARTUP_RUNS) and prints the median wall time in ms. The budget is 300 ms;
// the exit code is 1 when the median exceeds it (or env CLI_STARTUP_BUDGET_MS).
//   node --import tsx test/bench/cli-startup.ts      (after `pnpm build`)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../apps/cli/dist/bin.js', import.meta.url));
const runs = Number(process.env.CLI_STARTUP_RUNS ?? 20);
const budget = Number(process.env.CLI_STARTUP_BUDGET_MS ?? 300);

if (!existsSync(bin)) {
  console.error(`cli-startup: ${bin} does not exist; build first (pnpm build).`);
  process.exit(2);
}

function once(): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
  const ms = performance.now() - start;
  if (result.status !== 0 || !result.stdout.includes('Usage:')) {
    console.error(`cli-startup: troupe --help failed (exit ${result.status}): ${result.stderr}`);
    process.exit(1);
  }
  return ms;
}

once(); // warm the file cache
const times = Array.from({ length: runs }, once).sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)]!;
console.log(
  `troupe --help: median ${median.toFixed(0)} ms over ${runs} runs (min ${times[0]!.toFixed(0)}, max ${times[times.length - 1]!.toFixed(0)}; budget ${budget} ms)`,
);
if (median > budget) process.exitCode = 1;
