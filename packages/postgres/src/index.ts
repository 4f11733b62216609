// The public API of @troupe/postgres.

export { CLUSTER_EVENTS } from './cluster/channels.js';
export { ClusterClient, type ClusterClientOptions, connectCluster } from './cluster/cluster-client.js';
export type { ClusterLimits, ClusterOptions, WorkerOptions } from './cluster/cluster-options.js';
export type { ClusterTeamHandle } from './cluster/cluster-teams.js';
export { ClusterWorker, startWorker } from './cluster/worker.js';
export {
  openPostgresStore,
  type PostgresStoreOptions,
  type PostgresTaskStore,
  type TaskQuery,
} from './store/postgres-store.js';
export { DATABASE_SCHEMA_VERSION } from './store/schema.js';
