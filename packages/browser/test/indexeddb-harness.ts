import type { TaskStore } from '@troupe/core';
import type { StoreSuiteHarness } from '@troupe/core/store';
import { createStore, get, keys, set, setMany, type UseStore } from 'idb-keyval';
import { createIndexedDbStore, type IndexedDbStore, type IndexedDbStoreOptions } from '../src/index.js';

// The IndexedDB store's conformance harness, shared by the Node run (fake-indexeddb) and the
// Chromium run (the real IndexedDB). `raw` writes past the store, in its storage layout (see
// src/store/store-keys.ts), as a crash, an older or a newer troupe would have left the data.

const open: IndexedDbStore[] = [];
let counter = 0;

/** A claimed store with a name no other test uses. */
export async function freshStore(options: IndexedDbStoreOptions = {}): Promise<IndexedDbStore> {
  const store = createIndexedDbStore({ name: `test-${Date.now()}-${counter++}`, ...options });
  open.push(store);
  await store.claim();
  return store;
}

/** A second store over the same database (a reload), claimed once the first one is closed. */
export async function reopenStore(
  store: TaskStore,
  options: IndexedDbStoreOptions = {},
): Promise<IndexedDbStore> {
  const { name } = store as IndexedDbStore;
  await store.close?.();
  const next = createIndexedDbStore({ ...options, name });
  open.push(next);
  await next.claim();
  return next;
}

/** Closes every store a test opened and deletes their databases. */
export async function closeStores(): Promise<void> {
  const names = new Set(open.map((store) => store.name));
  await Promise.all(open.splice(0).map((store) => store.close().catch(() => undefined)));
  await Promise.all(
    [...names].map(
      (name) =>
        new Promise<void>((resolve) => {
          const request = indexedDB.deleteDatabase(`troupe-tasks:${name}`);
          request.onsuccess = request.onerror = request.onblocked = () => resolve();
        }),
    ),
  );
}

/** The raw object store behind `store`. */
export const rawStore = (store: TaskStore): UseStore =>
  createStore(`troupe-tasks:${(store as IndexedDbStore).name}`, 'documents');

async function journalKeys(use: UseStore, taskId: string): Promise<[string, string, number][]> {
  return ((await keys(use)) as unknown[][])
    .filter((key) => key[0] === 'journal' && key[1] === taskId)
    .map((key) => key as [string, string, number])
    .sort((a, b) => a[2] - b[2]);
}

/** The harness `runTaskStoreSuite` gets. */
export const indexedDbHarness: StoreSuiteHarness = {
  create: () => freshStore(),
  reopen: (store) => reopenStore(store),
  cleanup: closeStores,
  raw: {
    async putStatusRecord(store, value) {
      const use = rawStore(store);
      const seq = (await get<number>(['meta', 'statusSeq'], use)) ?? 0;
      await setMany(
        [
          [['status', seq], JSON.stringify(value)],
          [['meta', 'statusSeq'], seq + 1],
        ],
        use,
      );
    },
    async putJournalEntry(store, taskId, value) {
      const use = rawStore(store);
      await set(['journal', taskId, (await journalKeys(use, taskId)).length], JSON.stringify(value), use);
    },
    async putSnapshot(store, taskId, value) {
      await set(['snapshot', taskId], JSON.stringify(value), rawStore(store));
    },
    async truncateJournal(store, taskId) {
      // A write cut short: the last entry's text ends in the middle.
      const use = rawStore(store);
      const last = (await journalKeys(use, taskId)).at(-1);
      if (!last) throw new Error(`task ${taskId} has no journal to truncate`);
      const text = (await get<string>(last, use)) ?? '';
      await set(last, text.slice(0, Math.floor(text.length / 2)), use);
    },
  },
};
