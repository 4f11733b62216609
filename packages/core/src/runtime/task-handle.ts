import type { TaskResult } from '../persistence/types.js';

/** What `runtime.spawn` returns. */
export interface TaskHandle {
  readonly id: string;
  /** Resolves when the task ends. Never rejects for task failures: read `status`. */
  readonly result: Promise<TaskResult>;
}
