import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { indexedDbStoreCases } from './indexeddb-store-cases.js';

// The IndexedDB store's own behaviour in Node over fake-indexeddb; the same cases run in Chromium.
indexedDbStoreCases({ describe, it, expect, afterEach });
