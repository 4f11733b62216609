// The public API of @troupe/postgres.
export {
  openPostgresStore,
  type PostgresStoreOptions,
  PostgresTaskStore,
  type TaskQuery,
} from './store/postgres-store.js';
export { DATABASE_SCHEMA_VERSION } from './store/schema.js';
