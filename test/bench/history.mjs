// Issue #10's history target: a runtime opened on a store that holds 10,000 finished tasks lists
// them (first page, newest first; a filtered page; one old task by id) without loading every
// task's documents. Prints a JSON line. Used by run.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from '@troupe/core';
import { createFileStore } from '@troupe/node';
import { lookupTool, runTroupe, zeroLatencyModel } from './workload.mjs';

const tasks = Number(process.argv[2] ?? 10_000);
const dir = mkdtempSync(join(tmpdir(), 'troupe-bench-history-'));
try {
  await runTroupe(tasks, { store: createFileStore({ dir }) });
  const before = process.memoryUsage().heapUsed;
  const runtime = createRuntime({
    model: zeroLatencyModel,
    tools: [lookupTool],
    agents: [{ name: 'worker', description: 'Does work.', systemPrompt: 'You work.', tools: ['lookup'] }],
    store: createFileStore({ dir }),
  });
  const time = async (work) => {
    const started = performance.now();
    const value = await work();
    return [performance.now() - started, value];
  };
  const [firstPageMs, first] = await time(() => runtime.history({ limit: 50 }));
  const [filteredMs, filtered] = await time(() =>
    runtime.history({ status: 'completed', agent: 'worker', limit: 50, cursor: first.cursor }),
  );
  const oldest = filtered.tasks.at(-1)?.id;
  const [findMs, found] = await time(() => runtime.find(oldest));
  if (first.tasks.length !== 50 || filtered.tasks.length !== 50 || found?.status !== 'completed')
    throw new Error('bench: history did not list the stored tasks');
  const heapMb = (process.memoryUsage().heapUsed - before) / 2 ** 20;
  await runtime.shutdown();
  console.log(JSON.stringify({ tasks, firstPageMs, filteredMs, findMs, heapMb }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
