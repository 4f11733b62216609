import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/memory-store.js';
import { runReplaySuite } from './replay-suite.js';

runReplaySuite(
  'memory store',
  { describe, it, expect, afterEach },
  { create: async () => createMemoryStore(), reopen: async (store) => store },
);
