import type { TaskStore } from '@troupe/core';
import { openPostgresStore, type PostgresTaskStore } from '../src/index.js';
import type { TestCluster } from '../src/testing/index.js';

/**
 * How the shared store suites (`runTaskStoreSuite`, `runReplaySuite`) reach Postgres: each new
 * store in a fresh database of `cluster` (named `<prefix>_<n>`), reopened as another process would
 * open it (a second store on the same database), every store closed at cleanup.
 */
export function postgresStoreHarness(cluster: TestCluster, prefix: string) {
  let databases = 0;
  const urls = new Map<TaskStore, string>();
  const open: PostgresTaskStore[] = [];
  const openOn = async (url: string): Promise<PostgresTaskStore> => {
    const store = await openPostgresStore({ url });
    urls.set(store, url);
    open.push(store);
    return store;
  };
  return {
    async create(): Promise<PostgresTaskStore> {
      return openOn(await cluster.createDatabase(`${prefix}_${++databases}`));
    },
    async reopen(store: TaskStore): Promise<TaskStore> {
      await store.flush();
      return openOn(urls.get(store)!);
    },
    async cleanup(): Promise<void> {
      await Promise.all(open.splice(0).map((store) => store.close().catch(() => {})));
      urls.clear();
    },
  };
}
