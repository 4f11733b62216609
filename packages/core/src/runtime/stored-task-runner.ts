import type { TaskSpec } from '../persistence/types.js';
import type { Runtime } from './create-runtime.js';
import type { TaskHandle } from './task-handle.js';

/** What a cluster worker needs of its runtime beyond the public API. */
export interface StoredTaskRunner {
  /** Runs a task another process stored as queued, through the supervisor's queue (see `Runtime`). */
  runStored(spec: TaskSpec): TaskHandle;
}

/**
 * The part of a runtime that runs tasks prepared elsewhere (`@troupe/postgres`'s workers run the
 * tasks a cluster client queued). The member is internal to `Runtime` (stripped from its published
 * type); this is the one sanctioned way to reach it.
 */
export function storedTaskRunnerOf(runtime: Runtime): StoredTaskRunner {
  return runtime;
}
