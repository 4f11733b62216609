import type { TaskWorkspaceOutcome } from '@troupe/core';
import type { Colors } from './colors.js';

/** Changed files listed under a kept worktree's line; the rest are counted. */
const LISTED_FILES = 5;

/** A file name as a line may show it: no control characters (a name is the task's to choose). */
function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

/**
 * What became of a task's own worktree (`isolation: worktree`), for the task's final line and
 * `tasks show`: `worktree: /path on branch troupe/x-t_1 · 2 files, +10 -3` and its changed files,
 * or `worktree: removed (no changes)`.
 */
export function workspaceLines(outcome: TaskWorkspaceOutcome, colors: Colors): string[] {
  if (!outcome.kept) return [colors.dim('worktree: removed (no changes)')];
  const branch = outcome.branch ? ` on branch ${colors.bold(printable(outcome.branch))}` : '';
  const files = `${outcome.files} file${outcome.files === 1 ? '' : 's'}`;
  const lines = [
    `worktree: ${printable(outcome.path)}${branch} · ${files}, ${colors.green(`+${outcome.added}`)} ${colors.red(`-${outcome.removed}`)}`,
  ];
  for (const change of outcome.changes.slice(0, LISTED_FILES))
    lines.push(
      `  ${printable(change.file)} ${colors.green(`+${change.added}`)} ${colors.red(`-${change.removed}`)}`,
    );
  if (outcome.files > LISTED_FILES) lines.push(colors.dim(`  … and ${outcome.files - LISTED_FILES} more`));
  return lines;
}
