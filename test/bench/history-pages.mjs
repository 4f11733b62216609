// The one way the history benchmarks measure a store's history: a runtime opened on the store
// lists its first page (newest first), optionally the page after it, a page filtered by status and
// agent from there, and finds the oldest task of that page by id. Used by history.mjs and
// history-store.mjs.
import { createRuntime } from '@troupe/core';
import { createFileStore } from '@troupe/node';
import { lookupTool, zeroLatencyModel } from './workload.mjs';

const PAGE = 50;

async function timed(work) {
  const started = performance.now();
  const value = await work();
  return [performance.now() - started, value];
}

/** A runtime on the file store at `dir`, as the history benchmarks open it. */
export function openHistoryRuntime(dir) {
  return createRuntime({
    model: zeroLatencyModel,
    tools: [lookupTool],
    agents: [{ name: 'worker', description: 'Does work.', systemPrompt: 'You work.', tools: ['lookup'] }],
    store: createFileStore({ dir }),
  });
}

/**
 * Measures `runtime`'s history pages (ms each): the first, with `nextPage` the one after it, then
 * a page of `agent`'s completed tasks from there, and `find` of that page's oldest task. Throws
 * when a page is short, the pages are not newest first, or the task found is not completed.
 */
export async function measureHistoryPages(runtime, { agent, nextPage = false }) {
  const [firstPageMs, first] = await timed(() => runtime.history({ limit: PAGE }));
  const pages = [first];
  const times = { firstPageMs };
  if (nextPage) {
    const [nextPageMs, next] = await timed(() => runtime.history({ limit: PAGE, cursor: first.cursor }));
    pages.push(next);
    times.nextPageMs = nextPageMs;
  }
  const [filteredMs, filtered] = await timed(() =>
    runtime.history({ status: 'completed', agent, limit: PAGE, cursor: pages.at(-1).cursor }),
  );
  pages.push(filtered);
  times.filteredMs = filteredMs;
  const [findMs, found] = await timed(() => runtime.find(filtered.tasks.at(-1)?.id));
  times.findMs = findMs;
  const newestFirst = pages.every(
    (page, index) => index === 0 || pages[index - 1].tasks[0]?.id > page.tasks[0]?.id,
  );
  if (pages.some((page) => page.tasks.length !== PAGE) || !newestFirst || found?.status !== 'completed')
    throw new Error('bench: history did not list the stored tasks newest first');
  return times;
}
