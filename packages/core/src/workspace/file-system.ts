import type { GrepEngine } from './grep-types.js';
import type { PatternRunner } from './pattern-runner.js';

/** What {@link WorkspaceFileSystem.stat} says about a resolved path. */
export interface WorkspaceEntryInfo {
  /** A regular file, a directory, or anything else (a FIFO, a device, a socket). */
  kind: 'file' | 'directory' | 'other';
  /** Size in bytes. */
  size: number;
  /** Last modification, in ms since the epoch. */
  modifiedMs: number;
}

/** One entry of a directory, as {@link WorkspaceFileSystem.list} gives it (links not followed). */
export interface WorkspaceDirectoryEntry {
  name: string;
  /** `link` is a symbolic link (shown with its target), `other` a FIFO, device or socket. */
  kind: 'file' | 'directory' | 'link' | 'other';
  /** A file's size in bytes, when it could be read. */
  size?: number;
  /** A link's target as written in the link. */
  target?: string;
}

/** A file search by glob patterns, with the semantics of tinyglobby (picomatch). */
export interface GlobRequest {
  /** A resolved directory (from the file system's own `resolve*` or `rootPath`): patterns are relative to it. */
  directory: string;
  /**
   * Globs relative to `directory`: `*` and `?` within a segment (dot files included), `**` any
   * depth, `{a,b}` alternatives, `[abc]` classes, `\` escapes. A pattern without `/` matches only
   * directly in `directory`.
   */
  patterns: readonly string[];
  /** Globs (as `patterns`) of files to leave out; `x/**` also keeps the walk out of `x`. */
  ignore: readonly string[];
  signal?: AbortSignal;
}

/**
 * The file system the workspace tools (`read`, `write`, `edit`, `ls`, `glob`, `grep`) run over:
 * the one port that `@troupe/node` implements over `node:fs` (confined to a root, symbolic links
 * resolved and re-checked, race-free opens) and `@troupe/browser` over an Origin Private File
 * System folder. A *resolved path* is a string only the file system interprets; tools get one from
 * `resolveExisting`, `resolveForWrite` or `locate`, and show paths to the model through `display`.
 * Methods that take a `toolName` throw a `ToolError` (TOOL_FAILED) with a message for the model.
 */
export interface WorkspaceFileSystem {
  /** The workspace as named in messages ("does not exist in the workspace "<root>""). */
  readonly root: string;
  /** The resolved path of the root itself. */
  readonly rootPath: string;
  /**
   * Resolves a path the model gave (absolute or relative to the root) that must exist. Throws a
   * `ToolError` naming the path when it leaves the workspace or does not exist.
   */
  resolveExisting(inputPath: string, toolName: string): Promise<string>;
  /** Resolves a path that may not exist yet (write, edit); throws a `ToolError` when it leaves the workspace. */
  resolveForWrite(inputPath: string, toolName: string): Promise<string>;
  /**
   * The resolved path of a root-relative path this file system reported (from `glob`), without
   * checks: reads through it are confined all the same.
   */
  locate(relativePath: string): string;
  /** A resolved path as shown to the model: relative to the root, `/`-separated, `.` for the root. */
  display(resolvedPath: string): string;
  /** What is at a resolved path (links followed), or `undefined` when nothing is. */
  stat(resolvedPath: string): Promise<WorkspaceEntryInfo | undefined>;
  /**
   * A regular file's text, decoded as UTF-8 (invalid bytes become U+FFFD), in chunks of any size;
   * a NUL byte stays U+0000, which is how binary files are told. Opening it never waits (a FIFO
   * swapped in is refused). Stopping the iteration early closes the file.
   */
  readText(resolvedPath: string, toolName: string, signal?: AbortSignal): AsyncIterable<string>;
  /** Creates or replaces a regular file with `content` (UTF-8), creating missing parent directories. */
  writeText(resolvedPath: string, content: string, toolName: string): Promise<void>;
  /** The entries of a resolved directory, unsorted. */
  list(resolvedPath: string, toolName: string): Promise<WorkspaceDirectoryEntry[]>;
  /**
   * The files (not directories) below `request.directory` that match, as root-relative `/`-separated
   * paths in any order: dot files included, symbolic links not followed. Callers re-check a path
   * (`resolveExisting`, or a confined `readText`) before they report or read it.
   */
  glob(request: GlobRequest): Promise<string[]>;
  /**
   * A search engine faster than the built-in JavaScript scan (ripgrep in Node): called first by
   * `grep`; resolves `false` when it cannot run here (then the scan runs), and throws a
   * `SearchPatternError` when its syntax refuses the pattern (the scan then tries it).
   */
  search?: {
    /** The pattern syntax the engine reads, as `grep`'s description names it to the model. */
    syntax: string;
    /** Runs one search; resolves `false` when it cannot run here. */
    engine: (...args: Parameters<GrepEngine>) => Promise<boolean>;
  };
  /**
   * Runs the JavaScript scan's pattern off the main thread under `grep`'s time limit (a worker in
   * Node). Without it the pattern runs in the calling thread with no time limit.
   */
  startPatternRunner?(
    pattern: string,
    ignoreCase: boolean,
    limitMs: number,
    signal: AbortSignal,
  ): PatternRunner;
}
