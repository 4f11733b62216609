import { cancelledBeforeStart } from '../runtime/task-results.js';
import { finalRecord, resultDocument } from './task-documents.js';
import type { TaskResult, TaskSpec, TaskStore } from './types.js';

/**
 * Ends, in the store, a task that no runtime runs: saves a `cancelled` result (reason `ABORTED`,
 * `reason` as its error message) and appends the final `task.cancelled` record at `at`, so the
 * task is listed as cancelled and never restored. Only for a task no process is running (a
 * running one is cancelled through its runtime, `runtime.cancel`). Returns the result; call
 * `store.flush()` to wait for the writes.
 */
export function cancelStoredTask(store: TaskStore, spec: TaskSpec, reason: string, at: number): TaskResult {
  const result = cancelledBeforeStart(spec, reason);
  store.saveResult(resultDocument(result));
  store.appendStatus(finalRecord(result, at));
  return result;
}
