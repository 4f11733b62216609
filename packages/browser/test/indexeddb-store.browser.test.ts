import { runTaskStoreSuite, storeRecords } from '@troupe/core/store';
import { createStore, get } from 'idb-keyval';
import { afterEach, describe, expect, it } from 'vitest';
import { createIndexedDbStore } from '../src/index.js';
import { closeStores, freshStore, indexedDbHarness, reopenStore } from './indexeddb-harness.js';
import { indexedDbStoreCases } from './indexeddb-store-cases.js';

// In Chromium, over the real IndexedDB and Web Locks: the conformance suite, the store's own
// cases, and what only a page has (two writers, pagehide).
runTaskStoreSuite('IndexedDB store (Chromium)', { describe, it, expect, afterEach }, indexedDbHarness);
indexedDbStoreCases({ describe, it, expect, afterEach });

describe('IndexedDB store in a page', () => {
  afterEach(closeStores);

  it('lets one writer at a time claim a store; the next claim is granted when the first closes', async () => {
    const first = await freshStore();
    const second = createIndexedDbStore({ name: first.name });
    expect(await second.claim({ wait: false })).toBe(false);
    expect(second.claimed).toBe(false);
    expect(() => second.appendStatus(storeRecords.queuedRecord('t1'))).toThrow(/not claimed/);
    const waiting = second.claim();
    first.appendStatus(storeRecords.queuedRecord('t1'));
    await first.close();
    expect(await waiting).toBe(true);
    second.appendStatus(storeRecords.startedRecord('t1'));
    await second.close();
    const reader = createIndexedDbStore({ name: first.name });
    expect((await reader.getTask('t1'))?.status).toBe('running');
    await reader.close();
  });

  it('writes what is pending when the page is hidden, without a flush() call', async () => {
    const store = await freshStore({ flushDelayMs: 60_000, snapshotDelayMs: 60_000 });
    store.appendStatus(storeRecords.queuedRecord('t1'));
    const raw = createStore(`troupe-tasks:${store.name}`, 'documents');
    expect(await get(['status', 0], raw)).toBeUndefined();
    dispatchEvent(new PageTransitionEvent('pagehide'));
    await expect.poll(() => get(['status', 0], raw)).toBeTypeOf('string');
    expect((await (await reopenStore(store)).getTask('t1'))?.status).toBe('queued');
  });
});
