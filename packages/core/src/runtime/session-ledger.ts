import { describeThrown } from '../persistence/plain-json.js';
import { finalRecord, queuedRecord, resultDocument } from '../persistence/task-documents.js';
import type { TaskResult, TaskSpec, TaskStore } from '../persistence/types.js';
import { createTaskId } from './task-id.js';

/**
 * Stores a session's main-agent run, once it ended, as an ended task of depth 0 (its `task.queued`
 * and final status records and its result document: the store's ordinary records, so every
 * backend keeps it and `runtime.usage()` counts it, after a restart and from any process reading
 * the store). It is written only when the run has ended, so a restore never finds it unfinished.
 *
 * The stored task gets an id of its own (`id`, by default a new task id): a run's id
 * (`<session key>#<n>`) is counted per runtime and is not a valid id for every store. Its spec is
 * the run's as planned: the message's prompt, not the conversation before it. Returns why the
 * store refused it, or undefined.
 */
export function recordSessionRun(
  store: TaskStore,
  spec: TaskSpec,
  result: TaskResult,
  at: number,
  id: string = createTaskId(),
): string | undefined {
  try {
    store.appendStatus(queuedRecord({ ...spec, taskId: id }));
    const stored: TaskResult = { ...result, taskId: id };
    store.saveResult(resultDocument(stored));
    store.appendStatus(finalRecord(stored, at));
    return undefined;
  } catch (error) {
    return `Main-agent run ${spec.taskId} not stored: ${describeThrown(error)}`;
  }
}
