import { ValidationError } from '../errors.js';
import type { TaskPage, TaskQuery, TaskSummary } from './types.js';

/** Default page size of `listTasks`. */
export const DEFAULT_PAGE_SIZE = 50;
/** Largest page `listTasks` returns. */
export const MAX_PAGE_SIZE = 1_000;

/**
 * Checks a `listTasks` query and returns its page size: throws a `ValidationError` naming the
 * field for a `minDepth` that is no whole number ≥ 0, a `limit` that is no whole number ≥ 1, or a
 * `cursor` that is no cursor `listTasks` returned; else returns `limit` (default
 * {@link DEFAULT_PAGE_SIZE}) capped at {@link MAX_PAGE_SIZE}.
 */
export function checkQuery(query: TaskQuery): number {
  if (query.minDepth !== undefined && !(Number.isInteger(query.minDepth) && query.minDepth >= 0)) {
    throw new ValidationError(
      `listTasks: minDepth must be a whole number ≥ 0; got ${String(query.minDepth)}.`,
      ['minDepth'],
    );
  }
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new ValidationError(`listTasks: limit must be a whole number ≥ 1; got ${String(limit)}.`, [
      'limit',
    ]);
  }
  if (query.cursor !== undefined) decodeCursor(query.cursor);
  return Math.min(limit, MAX_PAGE_SIZE);
}

/** The position of a task in newest-first order: later `createdAt` first, then larger id. */
export interface TaskPosition {
  createdAt: number;
  taskId: string;
}

/** Encodes a position as an opaque cursor. */
export function encodeCursor(position: TaskPosition): string {
  return `${position.createdAt}:${position.taskId}`;
}

/** Decodes a cursor. Throws a `ValidationError` naming the cursor when it is not one. */
export function decodeCursor(cursor: string): TaskPosition {
  const colon = cursor.indexOf(':');
  const createdAt = Number(cursor.slice(0, colon));
  const taskId = cursor.slice(colon + 1);
  if (colon < 1 || !Number.isFinite(createdAt) || taskId === '') {
    throw new ValidationError(`listTasks: "${cursor}" is not a cursor returned by listTasks.`, ['cursor']);
  }
  return { createdAt, taskId };
}

/** Negative when `a` comes before `b` in newest-first order. */
export function newestFirst(a: TaskPosition, b: TaskPosition): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.taskId < b.taskId ? 1 : a.taskId > b.taskId ? -1 : 0;
}

/** True when a summary passes the query's filters (not its paging). */
export function matchesQuery(summary: TaskSummary, query: TaskQuery): boolean {
  if (query.status !== undefined) {
    const statuses = typeof query.status === 'string' ? [query.status] : query.status;
    if (!statuses.includes(summary.status)) return false;
  }
  if (query.agent !== undefined && summary.agent !== query.agent) return false;
  if (query.sessionKey !== undefined && summary.sessionKey !== query.sessionKey) return false;
  if (query.minDepth !== undefined && summary.depth < query.minDepth) return false;
  return true;
}

/**
 * One page of `summaries` for `query`, newest first: the helper for stores that hold their index
 * in memory. Work is linear in the number of tasks; the page is sorted, not the whole list.
 */
export function pageOfTasks(summaries: Iterable<TaskSummary>, query: TaskQuery = {}): TaskPage {
  const size = checkQuery(query);
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  // Keep the best `size + 1` candidates in a sorted array: cheap for small pages.
  const best: TaskSummary[] = [];
  for (const summary of summaries) {
    if (!matchesQuery(summary, query)) continue;
    if (after && newestFirst(summary, after) <= 0) continue;
    if (best.length > size && newestFirst(summary, best[best.length - 1] as TaskSummary) >= 0) continue;
    let index = best.length;
    while (index > 0 && newestFirst(summary, best[index - 1] as TaskSummary) < 0) index--;
    best.splice(index, 0, summary);
    if (best.length > size + 1) best.pop();
  }
  const tasks = best.slice(0, size);
  const last = tasks[tasks.length - 1];
  return best.length > size && last ? { tasks, cursor: encodeCursor(last) } : { tasks };
}
