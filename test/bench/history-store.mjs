// Issue #27's history target: the first page of a runtime's history over a file store holding
// 100,000 tasks, each stored the way a run stores it (queued with its spec, started, result,
// finished), written through the store API rather than by running the tasks. The store is built
// in this process, then measured in a fresh one (`measure <dir>`), so the heap counts only what
// opening the store and listing its first page keep. Prints a JSON line. Used by run.ts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { finalRecord, queuedRecord, resultDocument, statusRecord, storeRecords } from '@troupe/core/store';
import { createFileStore } from '@troupe/node';
import { measureHistoryPages, openHistoryRuntime } from './history-pages.mjs';

const SYSTEM = 'You work. '.repeat(40);

/** Task `index` as a run stores it: its spec, its result (core's test records, with the bench's sizes). */
function task(index, createdAt) {
  const taskId = `task-${String(index).padStart(7, '0')}`;
  const agent = index % 2 === 0 ? 'worker' : 'helper';
  const spec = storeRecords.specOf(taskId, createdAt, {
    agent,
    prompt: `Look up key ${index}`,
    sessionKey: `s${index % 10}`,
    model: 'bench-model',
    system: SYSTEM,
    tools: ['lookup'],
    limits: { maxTurns: 6, tokenBudget: 100_000, timeoutMs: 300_000 },
    messages: [{ role: 'user', content: `Look up key ${index}` }],
  });
  const result = {
    ...storeRecords.resultOf(taskId),
    agent,
    turns: 5,
    toolCalls: 4,
    durationMs: 12,
    model: 'bench-model',
  };
  return { spec, result };
}

/** Writes `tasks` finished tasks into a file store at `dir`, through its API and core's document makers. */
async function build(dir, tasks) {
  const store = createFileStore({ dir });
  const start = Date.UTC(2026, 0, 1);
  for (let index = 0; index < tasks; index++) {
    const at = start + index * 10;
    const { spec, result } = task(index, at);
    store.appendStatus(queuedRecord(spec));
    store.appendStatus(statusRecord(spec.taskId, 'task.started', at + 1));
    store.saveResult(resultDocument(result));
    store.appendStatus(finalRecord(result, at + 5));
    if (index % 1000 === 999) await store.flush();
  }
  await store.close();
}

async function measure(dir) {
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage().rss;
  const runtime = openHistoryRuntime(dir);
  const times = await measureHistoryPages(runtime, { agent: 'helper', nextPage: true });
  globalThis.gc?.();
  const heapMb = (process.memoryUsage().heapUsed - before) / 2 ** 20;
  const rssMb = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
  await runtime.shutdown();
  return { ...times, heapMb, rssMb };
}

const [mode, arg] = process.argv.slice(2);
if (mode === 'measure') {
  console.log(JSON.stringify(await measure(arg)));
} else {
  const tasks = Number(mode ?? 100_000);
  const dir = mkdtempSync(join(tmpdir(), 'troupe-bench-history-store-'));
  try {
    const started = performance.now();
    await build(dir, tasks);
    const buildMs = performance.now() - started;
    const out = execFileSync(
      process.execPath,
      [...process.execArgv, '--expose-gc', fileURLToPath(import.meta.url), 'measure', dir],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    console.log(JSON.stringify({ tasks, buildMs, ...JSON.parse(out.trim().split('\n').at(-1)) }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
