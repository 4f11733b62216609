import { structuredPatch } from 'diff';
import type { Colors } from './colors.js';

/** Lines of a diff shown at most in an approval; the rest is summarised. */
const MAX_LINES = 80;

/** What a file tool call would change: the file's text before and after. */
export interface FileChange {
  path: string;
  /** The current text; undefined when the file does not exist yet. */
  before: string | undefined;
  after: string;
  /** Set when the edit cannot be applied to the file as it is (its old text is not there). */
  problem?: string;
}

/**
 * The change a `write` or `edit` call would make, given the file's current text (undefined when
 * it does not exist). Undefined for other tools or inputs that name no file.
 */
export function fileChangeOf(
  tool: string,
  input: unknown,
  current: string | undefined,
): FileChange | undefined {
  const fields = (input ?? {}) as Record<string, unknown>;
  const path = fields.file_path;
  if (typeof path !== 'string') return undefined;
  if (tool === 'write' && typeof fields.content === 'string')
    return { path, before: current, after: fields.content };
  if (tool === 'edit' && typeof fields.old_string === 'string' && typeof fields.new_string === 'string') {
    const before = current ?? '';
    const { old_string: from, new_string: to } = fields as { old_string: string; new_string: string };
    if (from === '' || !before.includes(from)) {
      return {
        path,
        before: from,
        after: to,
        problem:
          current === undefined
            ? 'the file does not exist'
            : 'its old text is not in the file as it is now; the tool will refuse it',
      };
    }
    const after = fields.replace_all === true ? before.split(from).join(to) : before.replace(from, () => to);
    return { path, before: current, after };
  }
  return undefined;
}

/** A coloured unified diff of a change (`-` red, `+` green, `@@` cyan), cut after {@link MAX_LINES}. */
export function diffLines(change: FileChange, colors: Colors): string[] {
  const header =
    change.problem !== undefined
      ? colors.yellow(`${change.path}: ${change.problem}; the edit replaces:`)
      : change.before === undefined
        ? colors.bold(`${change.path} (new file)`)
        : colors.bold(change.path);
  const patch = structuredPatch(change.path, change.path, change.before ?? '', change.after, '', '', {
    context: 3,
  });
  const lines: string[] = [];
  for (const hunk of patch.hunks) {
    lines.push(colors.cyan(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`));
    for (const line of hunk.lines) {
      if (line.startsWith('\\')) continue;
      if (line.startsWith('+')) lines.push(colors.green(line));
      else if (line.startsWith('-')) lines.push(colors.red(line));
      else lines.push(colors.dim(line));
    }
  }
  if (lines.length === 0) lines.push(colors.dim('(no change)'));
  const shown = lines.slice(0, MAX_LINES);
  if (lines.length > MAX_LINES) shown.push(colors.dim(`… ${lines.length - MAX_LINES} more diff lines`));
  return [header, ...shown];
}
