import { DEFAULT_MAX_OUTPUT_CHARS } from './text.js';

/** Limits and choices of the workspace tools; every field has a default. */
export interface WorkspaceToolsOptions {
  /** Cap on the text one tool call returns, in characters (default 30,000); the rest is cut with a note. */
  maxOutputChars?: number;
  /** Lines `read` returns when no limit is given (default 2,000). */
  readDefaultLimit?: number;
  /** Longest line `read`, `edit` and `grep` show before cutting it, in characters (default 2,000). */
  maxLineChars?: number;
  /** Directory names `grep` and `glob` never descend into (default `.git`, `node_modules`). */
  ignoreDirectories?: readonly string[];
  /** Most files `glob` lists (default 100). */
  globMaxResults?: number;
  /** Order of `glob` results: newest first (`mtime`, default) or by path (`name`). */
  globSort?: 'mtime' | 'name';
  /**
   * Longest `grep`'s JavaScript scan may run its pattern on one block of text, in ms (default
   * 5,000), where the file system runs patterns off the main thread (`startPatternRunner`).
   */
  grepPatternTimeoutMs?: number;
  /** A sentence appended to `grep`'s description (Node: use it instead of grep or rg through bash). */
  grepAdvice?: string;
}

/** {@link WorkspaceToolsOptions} after defaults. */
export type ResolvedWorkspaceToolsOptions = Required<Omit<WorkspaceToolsOptions, 'grepAdvice'>> &
  Pick<WorkspaceToolsOptions, 'grepAdvice'>;

const DEFAULTS = {
  maxOutputChars: DEFAULT_MAX_OUTPUT_CHARS,
  readDefaultLimit: 2_000,
  maxLineChars: 2_000,
  ignoreDirectories: ['.git', 'node_modules'],
  globMaxResults: 100,
  globSort: 'mtime',
  grepPatternTimeoutMs: 5_000,
} as const;

/** Applies defaults to {@link WorkspaceToolsOptions}. Throws a `RangeError` when a number is not positive. */
export function resolveWorkspaceToolsOptions(
  options: WorkspaceToolsOptions = {},
): ResolvedWorkspaceToolsOptions {
  for (const [name, value] of Object.entries(options)) {
    if (typeof value === 'number' && !(Number.isFinite(value) && value > 0)) {
      throw new RangeError(`Workspace tools option ${name} must be a positive number; got ${String(value)}.`);
    }
  }
  return { ...DEFAULTS, ...options };
}
