// How `troupe tasks show|cancel|resume` find the stored tasks they work on without loading every
// stored task: a full id is one `getTask`; a prefix is matched against the ids of the store's paged
// index (summaries only, no conversations or documents) and only the matched task is read.
import type { StoredTask, TaskQuery, TaskStatus, TaskStore, TaskSummary } from '@troupe/core';
import { isFinalStatus, MAX_PAGE_SIZE, TASK_STATUSES } from '@troupe/core/store';
import { CliError } from '../errors.js';
import { matchTaskId } from '../task-ids.js';

/** The statuses of a task that has not ended: what `troupe tasks resume` carries on. */
export const UNFINISHED_STATUSES: readonly TaskStatus[] = TASK_STATUSES.filter(
  (status) => !isFinalStatus(status),
);

/**
 * The stored task `given` names: its full id (one `getTask`), else the one id of the store's index
 * it is a prefix of (see {@link matchTaskId}; the whole index is walked so a prefix two ids share is
 * reported ambiguous). Throws what `matchTaskId` throws when none or several match.
 */
export async function findStoredTask(store: TaskStore, given: string): Promise<StoredTask> {
  const exact = await store.getTask(given);
  if (exact) return exact;
  const ids: string[] = [];
  for await (const summary of summaries(store, {}))
    if (summary.taskId.startsWith(given)) ids.push(summary.taskId);
  const id = matchTaskId(ids, given);
  const task = await store.getTask(id);
  if (!task) throw new CliError(`Task ${id} is in the store's index but could not be read.`);
  return task;
}

/** Every task of the store that has not ended, newest first, read by status from its index. */
export async function unfinishedTasks(store: TaskStore): Promise<StoredTask[]> {
  const tasks: StoredTask[] = [];
  for await (const summary of summaries(store, { status: UNFINISHED_STATUSES })) {
    const task = await store.getTask(summary.taskId);
    // A task that ended between the index page and this read is no longer to resume.
    if (task && !isFinalStatus(task.status)) tasks.push(task);
  }
  return tasks;
}

/**
 * The summaries `query` matches, newest first, read from the store's index a page at a time; each
 * page asks for `pageSize()` summaries (the largest page unless told), read as the walk gets there.
 */
export async function* summaries(
  store: TaskStore,
  query: TaskQuery,
  pageSize: () => number = () => MAX_PAGE_SIZE,
): AsyncGenerator<TaskSummary> {
  let cursor: string | undefined;
  do {
    const page = await store.listTasks({
      ...query,
      limit: pageSize(),
      ...(cursor !== undefined ? { cursor } : {}),
    });
    yield* page.tasks;
    cursor = page.cursor;
  } while (cursor !== undefined);
}
