import { runReplaySuite } from '@troupe/core/store';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresStoreHarness } from './store-harness.js';
import { useTestCluster } from './test-cluster.js';

// Every way a task can end, recorded by a real runtime into Postgres and replayed from a second
// store on the same database, to the whole stored snapshot and result; tampered journals named at
// their first differing event. The same suite the memory, file and IndexedDB stores pass.
const cluster = useTestCluster();
runReplaySuite(
  'Postgres store',
  { describe, it, expect, afterEach },
  postgresStoreHarness(cluster, 'replay'),
);
