// Issue #10's history target: a runtime opened on a store that holds 10,000 finished tasks lists
// them (first page, newest first; a filtered page; one old task by id) without loading every
// task's documents. Prints a JSON line. Used by run.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileStore } from '@troupe/node';
import { measureHistoryPages, openHistoryRuntime } from './history-pages.mjs';
import { runTroupe } from './workload.mjs';

const tasks = Number(process.argv[2] ?? 10_000);
const dir = mkdtempSync(join(tmpdir(), 'troupe-bench-history-'));
try {
  await runTroupe(tasks, { store: createFileStore({ dir }) });
  const before = process.memoryUsage().heapUsed;
  const runtime = openHistoryRuntime(dir);
  const { firstPageMs, filteredMs, findMs } = await measureHistoryPages(runtime, { agent: 'worker' });
  const heapMb = (process.memoryUsage().heapUsed - before) / 2 ** 20;
  await runtime.shutdown();
  console.log(JSON.stringify({ tasks, firstPageMs, filteredMs, findMs, heapMb }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
