// @troupe/core/store: what a TaskStore implementation needs. A backend implements the narrow
// `StoragePort` and `createTaskStore` makes it a TaskStore; every store (memory, files, IndexedDB,
// Postgres) reads and writes the same versioned documents through these.
export { cancelStoredTask } from '../persistence/cancel-stored-task.js';
export { currentEventName, VERSION_1_EVENT_NAMES } from '../persistence/journal-events.js';
export { defaultGraceMs, machineInputFromSpec } from '../persistence/machine-input.js';
export {
  type Parsed,
  parseJournalEntry,
  parseJsonDocument,
  parseResultDocument,
  parseSnapshotDocument,
  parseStatusRecord,
  parseStoredDocument,
  parseTaskSummary,
  READABLE_SCHEMA_VERSIONS,
  type StoredDocuments,
} from '../persistence/parse-documents.js';
export {
  FINAL_STATUSES,
  type FinalTaskStatus,
  isFinalStatus,
  isTaskStatus,
  TASK_STATUSES,
} from '../persistence/statuses.js';
export {
  applyStatusRecord,
  finalRecord,
  foldStatusRecords,
  journalEntry,
  queuedRecord,
  resultDocument,
  statusRecord,
  summaryOf,
} from '../persistence/task-documents.js';
export { TASK_FACT_KEYS } from '../persistence/task-facts.js';
export {
  checkQuery,
  DEFAULT_PAGE_SIZE,
  decodeCursor,
  encodeCursor,
  MAX_PAGE_SIZE,
  matchesQuery,
  newestFirst,
  pageOfTasks,
  type TaskPosition,
} from '../persistence/task-pages.js';
export { messagesOfSnapshot, transcriptOf } from '../persistence/transcript.js';
export { SCHEMA_VERSION } from '../persistence/types.js';
export {
  type ReplaySuiteFramework,
  type ReplaySuiteHarness,
  runReplaySuite,
} from '../replay/replay-suite.js';
export { journalInOrder } from './journal-order.js';
export { jsonTextOf, snapshotRefusal } from './json-text.js';
export { createTaskStore, type PortStore, type TaskStoreOptions } from './port-store.js';
export type {
  MaybePromise,
  PortBatch,
  PortNotice,
  PortWrite,
  StatusRead,
  StoragePort,
  StorageReads,
  StoredLine,
  TaskHistoryIndex,
  WritesInBatches,
  WritesOneByOne,
} from './storage-port.js';
export * as storeRecords from './store-records.js';
export type { SuiteAssertion, SuiteConstructor, SuiteExpect, SuiteFramework } from './suite-framework.js';
export { runTaskStoreSuite, type StoreSuiteFramework, type StoreSuiteHarness } from './task-store-suite.js';
