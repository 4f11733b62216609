// Test helpers of @troupe/postgres: a throwaway Postgres server.
export { postgresBin, startTestCluster, type TestCluster } from './postgres-cluster.js';
