// One benchmark measurement in a fresh process; prints a JSON line. Used by run.ts.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore } from '@troupe/core';
import { createFileStore } from '@troupe/node';
import { runMachineOnly, runSupervisedOnly } from './machine-only.mjs';
import { runPlainXState } from './plain-xstate.mjs';
import { runBareLoop, runTroupe, TURNS_PER_TASK } from './workload.mjs';

const [kind = 'troupe', tasksArg = '2000', roundsArg = '5'] = process.argv.slice(2);
const tasks = Number(tasksArg);
const rounds = Number(roundsArg);
let bytesWritten = 0;

function directoryBytes(dir) {
  let total = 0;
  for (const name of readdirSync(dir)) total += statSync(join(dir, name)).size;
  return total;
}

/** A run with the durable file store in a fresh directory; records the bytes it wrote. */
async function runWithFileStore(size) {
  const dir = mkdtempSync(join(tmpdir(), 'troupe-bench-'));
  try {
    const elapsed = await runTroupe(size, { store: createFileStore({ dir }) });
    bytesWritten = directoryBytes(dir);
    return elapsed;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function once(size = tasks) {
  globalThis.gc?.();
  const cpu = process.cpuUsage();
  const wallMs =
    kind === 'bare'
      ? await runBareLoop(size)
      : kind === 'xstate'
        ? await runPlainXState(size, TURNS_PER_TASK)
        : kind === 'machine'
          ? await runMachineOnly(size, TURNS_PER_TASK)
          : kind === 'machine-no-effects'
            ? await runMachineOnly(size, TURNS_PER_TASK, { effects: false })
            : kind === 'supervised'
              ? await runSupervisedOnly(size, TURNS_PER_TASK)
              : kind === 'troupe-file'
                ? await runWithFileStore(size)
                : await runTroupe(size, { events: kind !== 'troupe-quiet', store: createMemoryStore() });
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000 };
}

if (kind === 'rss' || kind === 'rss-xstate') {
  // The OS high-water mark of the whole process, against the same process before any task.
  const baselineMb = process.memoryUsage().rss / 2 ** 20;
  if (kind === 'rss') await runTroupe(tasks);
  else await runPlainXState(tasks, TURNS_PER_TASK);
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify({ kind, tasks, peakRssMb, baselineMb }));
} else {
  // Warm the JIT up with at least 2,000 tasks, so small runs measure steady state too.
  for (let warm = 0; warm < Math.max(1, Math.ceil(2000 / tasks)); warm++) await once(Math.min(tasks, 2000));
  const samples = [];
  for (let round = 0; round < rounds; round++) samples.push(await once());
  samples.sort((a, b) => a.wallMs - b.wallMs);
  const median = samples[Math.floor(samples.length / 2)];
  console.log(JSON.stringify({ kind, tasks, ...median, minWallMs: samples[0].wallMs, bytesWritten }));
}
