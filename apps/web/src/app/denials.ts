import type { Runtime } from '@troupe/core';
import { createStore, entries, set } from 'idb-keyval';

const store = createStore('troupe-web-denials', 'denials');

/** The denied tool calls remembered from earlier visits: task id → denied tools. */
export async function loadDenials(): Promise<Map<string, string[]>> {
  return new Map(await entries<string, string[]>(store));
}

/**
 * Remembers every tool call the user denies (the runtime's `approval.resolved` events), so a task
 * whose write was denied says so on the board after a reload too. Returns the unsubscribe function.
 */
export function rememberDenials(runtime: Pick<Runtime, 'on'>, known: Map<string, string[]>): () => void {
  return runtime.on('approval.resolved', (event) => {
    if (event.decision !== 'deny') return;
    const tools = [...(known.get(event.taskId) ?? []), event.tool];
    known.set(event.taskId, tools);
    void set(event.taskId, tools, store).catch(() => {});
  });
}
