import { DEFAULT_MAX_OUTPUT_CHARS } from '@troupe/core/workspace';
import { createWorkspace, type Workspace } from './workspace.js';

/** Options of {@link createNodeTools} and of each `create*Tool` factory. */
export interface NodeToolsOptions {
  /** The workspace root every tool is confined to (an existing directory). */
  root: string;
  /** Cap on the text one tool call returns, in characters (default 30,000); the rest is cut with a note. */
  maxOutputChars?: number;
  /** Default timeout of a `bash` command, in ms (default 120,000). */
  bashTimeoutMs?: number;
  /** Largest timeout a model may ask `bash` for, in ms (default 600,000). */
  bashMaxTimeoutMs?: number;
  /** Time between SIGTERM and SIGKILL when a command's process group is killed, in ms (default 2,000). */
  bashKillGraceMs?: number;
  /**
   * Environment of `bash` commands, used exactly as given. Default: built at each call from this
   * process's environment through an allow-list (`PATH`, `HOME`, `USER`, `LOGNAME`, `SHELL`, `LANG`,
   * `LANGUAGE`, `LC_*`, `TERM`, `COLORTERM`, `NO_COLOR`, `TZ`, `TMPDIR`, `TMP`, `TEMP`) plus
   * `bashPassEnv`, so that a command cannot print a secret (`DATABASE_URL`, `GH_PAT`, an API key)
   * into a conversation that is then persisted.
   */
  bashEnv?: NodeJS.ProcessEnv;
  /** Further variables of this process to pass to `bash` commands, by exact name (default none). */
  bashPassEnv?: readonly string[];
  /** Shell used by `bash` (default `bash`). */
  shell?: string;
  /**
   * Run each `bash` call in a cgroup (v2) of its own, made below this process's cgroup, where
   * that is possible (root, or a delegated systemd unit; Linux 5.14+), so that every process it
   * starts is killed when it ends, also one that left its session and cleared its environment
   * (default `true`; `false` relies on the process group, the session and an environment tag).
   */
  bashCgroup?: boolean;
  /**
   * The ripgrep executable `grep` uses: a command name or path (default `rg`, looked up once), or
   * `false` to always use the built-in JavaScript search.
   */
  ripgrep?: string | false;
  /**
   * Longest `grep`'s JavaScript search (used for look-around, or without ripgrep) may run its
   * pattern on one 64 KiB block of text, in ms (default 5,000). Past it the call fails with an error
   * for the model; the pattern runs in a worker thread, so the event loop is never blocked.
   */
  grepPatternTimeoutMs?: number;
  /** Directory names `grep` and `glob` never descend into (default `.git`, `node_modules`). */
  ignoreDirectories?: readonly string[];
  /** Most files `glob` lists (default 100). */
  globMaxResults?: number;
  /** Order of `glob` results: newest first (`mtime`, default) or by path (`name`). */
  globSort?: 'mtime' | 'name';
  /** Lines `read` returns when no limit is given (default 2,000). */
  readDefaultLimit?: number;
  /** Longest line `read` and `grep` show before cutting it, in characters (default 2,000). */
  maxLineChars?: number;
}

/** Options after defaults, shared by the tools of one {@link createNodeTools} call. */
export interface NodeToolsContext {
  workspace: Workspace;
  maxOutputChars: number;
  bashTimeoutMs: number;
  bashMaxTimeoutMs: number;
  bashKillGraceMs: number;
  bashEnv: NodeJS.ProcessEnv | undefined;
  bashPassEnv: readonly string[];
  shell: string;
  bashCgroup: boolean;
  ripgrep: string | false;
  grepPatternTimeoutMs: number;
  ignoreDirectories: readonly string[];
  globMaxResults: number;
  globSort: 'mtime' | 'name';
  readDefaultLimit: number;
  maxLineChars: number;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`Node tools option ${name} must be a positive number; got ${String(value)}.`);
  }
  return value;
}

/**
 * Applies defaults to {@link NodeToolsOptions}. Throws when the root is not a directory or a
 * numeric option is not positive.
 */
export function resolveNodeToolsOptions(options: NodeToolsOptions | NodeToolsContext): NodeToolsContext {
  if ('workspace' in options) return options;
  return {
    workspace: createWorkspace(options.root),
    maxOutputChars: positive('maxOutputChars', options.maxOutputChars, DEFAULT_MAX_OUTPUT_CHARS),
    bashTimeoutMs: positive('bashTimeoutMs', options.bashTimeoutMs, 120_000),
    bashMaxTimeoutMs: positive('bashMaxTimeoutMs', options.bashMaxTimeoutMs, 600_000),
    bashKillGraceMs: positive('bashKillGraceMs', options.bashKillGraceMs, 2_000),
    bashEnv: options.bashEnv,
    bashPassEnv: options.bashPassEnv ?? [],
    shell: options.shell ?? 'bash',
    bashCgroup: options.bashCgroup ?? true,
    ripgrep: options.ripgrep ?? 'rg',
    grepPatternTimeoutMs: positive('grepPatternTimeoutMs', options.grepPatternTimeoutMs, 5_000),
    ignoreDirectories: options.ignoreDirectories ?? ['.git', 'node_modules'],
    globMaxResults: positive('globMaxResults', options.globMaxResults, 100),
    globSort: options.globSort ?? 'mtime',
    readDefaultLimit: positive('readDefaultLimit', options.readDefaultLimit, 2_000),
    maxLineChars: positive('maxLineChars', options.maxLineChars, 2_000),
  };
}
