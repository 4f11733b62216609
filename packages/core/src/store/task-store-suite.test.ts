import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/memory-store.js';
import { runTaskStoreSuite } from './task-store-suite.js';

// The memory store has no storage apart from itself: "reopening" it is the same store.
runTaskStoreSuite(
  'memory store',
  { describe, it, expect, afterEach },
  {
    create: async () => createMemoryStore(),
    reopen: async (store) => store,
  },
);
