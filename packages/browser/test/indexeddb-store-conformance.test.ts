import 'fake-indexeddb/auto';
import { runTaskStoreSuite } from '@troupe/core/store';
import { afterEach, describe, expect, it } from 'vitest';
import { indexedDbHarness } from './indexeddb-harness.js';

// The TaskStore conformance suite, in Node over fake-indexeddb. The same suite runs in Chromium
// over the real IndexedDB: indexeddb-store.browser.test.ts.
runTaskStoreSuite('IndexedDB store (fake-indexeddb)', { describe, it, expect, afterEach }, indexedDbHarness);
