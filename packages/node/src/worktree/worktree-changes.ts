import type { TaskWorkspaceChange } from '@troupe/core';
import { git } from './git-command.js';

/** Changed files listed on a result at most; the totals count them all. */
const LISTED_CHANGES = 50;

/** What a task changed in its worktree since `base`: committed, staged, unstaged and new files. */
export interface WorktreeChanges {
  files: number;
  added: number;
  removed: number;
  changes: TaskWorkspaceChange[];
}

/**
 * The changes of the worktree at `worktree` against the commit `base`: new files are first marked
 * with `git add --intent-to-add` (in the task's own index) so the diff counts them. Files that git
 * ignores are not changes.
 */
export async function worktreeChanges(worktree: string, base: string): Promise<WorktreeChanges> {
  await git(worktree, ['add', '--all', '--intent-to-add']);
  const numstat = await git(worktree, ['diff', '--numstat', '--no-renames', '-z', base, '--']);
  const result: WorktreeChanges = { files: 0, added: 0, removed: 0, changes: [] };
  for (const entry of numstat.split('\0')) {
    const match = /^(\d+|-)\t(\d+|-)\t([\s\S]+)$/.exec(entry);
    if (!match) continue;
    const added = match[1] === '-' ? 0 : Number(match[1]);
    const removed = match[2] === '-' ? 0 : Number(match[2]);
    result.files++;
    result.added += added;
    result.removed += removed;
    if (result.changes.length < LISTED_CHANGES) result.changes.push({ file: match[3]!, added, removed });
  }
  return result;
}
