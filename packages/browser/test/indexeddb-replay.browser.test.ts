import { runReplaySuite } from '@troupe/core/store';
import { afterEach, describe, expect, it } from 'vitest';
import { indexedDbHarness } from './indexeddb-harness.js';

// In Chromium, over the real IndexedDB: every way a task can end, recorded by a real runtime into
// the store and replayed from the store reopened (a reload), to the whole stored snapshot and
// result; tampered journals named at their first differing event. The same suite the memory,
// file and Postgres stores pass.
runReplaySuite('IndexedDB store (Chromium)', { describe, it, expect, afterEach }, indexedDbHarness);
