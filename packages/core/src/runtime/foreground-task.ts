import type { TaskResult } from '../persistence/types.js';
import type { TaskHandle } from './task-handle.js';

/**
 * The result of a task a tool call started and waits for: cancelled when the calling agent is
 * (its `signal` aborts), as the `task` and `send_message` tools do for a foreground task.
 */
export async function foregroundResult(
  runtime: { cancel(id: string, reason?: string): boolean },
  handle: TaskHandle,
  signal: AbortSignal,
): Promise<TaskResult> {
  const onAbort = () => runtime.cancel(handle.id, 'The calling agent was cancelled.');
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await handle.result;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
