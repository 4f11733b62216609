import { join } from 'node:path';
import { ValidationError } from '@troupe/core';

const TASK_ID = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/;
const RESERVED_SUFFIX = /\.(snapshot|journal)$/;

const RULE =
  "use 1-128 letters, digits, '_', '-' or '.', without path separators, not starting with '.' and not ending in .snapshot or .journal";

/** Whether `taskId` can name files in the store (see {@link checkTaskId}). */
export function isSafeTaskId(taskId: unknown): taskId is string {
  return typeof taskId === 'string' && TASK_ID.test(taskId) && !RESERVED_SUFFIX.test(taskId);
}

/**
 * Why a task id read from a store file cannot be used (it would name a file elsewhere, or another
 * task's), or undefined when it can. Records read back are checked with this: a hostile or damaged
 * status log never makes the store read, write or delete outside its directory.
 */
export function taskIdProblem(taskId: unknown): string | undefined {
  return isSafeTaskId(taskId)
    ? undefined
    : `task id ${JSON.stringify(taskId)} cannot name a file in the store (${RULE})`;
}

/**
 * Checks that a task id can name files in the store: 1-128 letters, digits, `_`, `-` or `.`, not
 * starting with `.`, and not ending in `.snapshot` or `.journal` (which would collide with another
 * task's files). Throws a `ValidationError` naming the id and the store directory.
 */
export function checkTaskId(taskId: unknown, dir: string): string {
  if (!isSafeTaskId(taskId)) {
    throw new ValidationError(
      `Task id ${JSON.stringify(taskId)} cannot name a file in the task store at "${dir}": ${RULE}.`,
      [`taskId: ${JSON.stringify(taskId)}`],
    );
  }
  return taskId;
}

/** Paths of the files of one store directory. */
export interface StorePaths {
  dir: string;
  /** The append-only status log. */
  tasks: string;
  /** The history index: task summaries newest first, folded from the status log (see `FileHistoryIndex`). */
  index: string;
  /** The lock file held while `prune` rewrites the status log. */
  lock: string;
  /** The lock file held by the one runtime that restored the store, until it closes it. */
  restoreLock: string;
  result(taskId: string): string;
  snapshot(taskId: string): string;
  journal(taskId: string): string;
}

/** The file layout of a store directory (see the package README). */
export function storePaths(dir: string): StorePaths {
  return {
    dir,
    tasks: join(dir, 'tasks.jsonl'),
    index: join(dir, 'tasks.index'),
    lock: join(dir, 'tasks.jsonl.lock'),
    restoreLock: join(dir, 'restore.lock'),
    result: (taskId) => join(dir, `${taskId}.json`),
    snapshot: (taskId) => join(dir, `${taskId}.snapshot.json`),
    journal: (taskId) => join(dir, `${taskId}.journal.jsonl`),
  };
}
