import { afterAll, beforeAll } from 'vitest';
import { startTestCluster, type TestCluster } from '../src/testing/index.js';

/**
 * One throwaway Postgres server for a test file: call at the top of the file (it registers a
 * `beforeAll` that starts the server and an `afterAll` that destroys it). The object returned
 * stands for the server once started; hooks the file registers later run after the start and,
 * for `afterAll`, before the server is destroyed.
 */
export function useTestCluster(): TestCluster {
  let cluster: TestCluster | undefined;
  beforeAll(async () => {
    cluster = await startTestCluster();
  }, 60_000);
  afterAll(async () => {
    await cluster?.destroy();
  }, 60_000);
  const started = (): TestCluster => {
    if (!cluster) throw new Error('The test cluster is not started yet: use it in tests and hooks only.');
    return cluster;
  };
  return {
    get port() {
      return started().port;
    },
    get dataDir() {
      return started().dataDir;
    },
    url: (database) => started().url(database),
    createDatabase: (name) => started().createDatabase(name),
    stop: (mode) => started().stop(mode),
    start: () => started().start(),
    destroy: () => started().destroy(),
  };
}
