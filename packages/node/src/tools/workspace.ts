import { realpathSync, statSync } from 'node:fs';
import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ToolError } from '@troupe/core';
import { confinePattern as confineGlobPattern } from '@troupe/core/workspace';

/** How many symbolic links one path may pass through before it is refused (as the kernel does). */
const MAX_SYMLINK_HOPS = 40;

/**
 * The directory the Node tools are confined to. Every path a tool touches is resolved here first:
 * relative paths are taken from the root, and the path with every symbolic link resolved must
 * stay inside the root's real path.
 */
export interface Workspace {
  /** The root as given, resolved to an absolute path. */
  readonly root: string;
  /** The root with symbolic links resolved; every resolved path starts with it. */
  readonly realRoot: string;
  /**
   * Resolves a path that must exist (read, ls, grep, glob). Returns its real path. Throws a
   * `ToolError` naming the path and the root when it escapes the root or does not exist.
   */
  resolveExisting(inputPath: string, toolName: string): Promise<string>;
  /**
   * Resolves a path that may not exist yet (write, edit). Returns the real path to write, with
   * every symbolic link on the way resolved (a dangling link is followed to where it points).
   * Throws a `ToolError` when that place is outside the root.
   */
  resolveForWrite(inputPath: string, toolName: string): Promise<string>;
  /** Whether an already-real path is inside the root. */
  contains(realPath: string): boolean;
  /**
   * Checks a glob pattern a tool will expand (glob's `pattern`, grep's `glob`, with or without a
   * leading `!`): it must be relative and must not climb out with `..`, also not through a brace
   * expansion (`..{/x,}`, `{..,a}/x`). Returns the pattern; throws a `ToolError` naming it.
   */
  confinePattern(pattern: string, toolName: string, parameter: string): string;
  /**
   * Re-checks a path a tool is about to report or read (a glob match, a search result): with
   * every symbolic link resolved, it must be inside the root. Returns its real path, or
   * `undefined` when it is outside or gone.
   */
  confineResult(path: string): Promise<string | undefined>;
  /** A real path as shown to the model: relative to the root, `.` for the root itself. */
  display(realPath: string): string;
}

function isInside(child: string, parent: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(sep) ? parent : parent + sep;
  return child.startsWith(prefix);
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Resolves every symbolic link in `path`, including links whose target does not exist yet: the
 * part of the path that does not exist is kept as written. Throws on a link loop.
 */
async function realpathAllowingMissing(path: string, hops = 0): Promise<string> {
  if (hops > MAX_SYMLINK_HOPS) {
    throw Object.assign(new Error(`too many levels of symbolic links at ${path}`), { code: 'ELOOP' });
  }
  try {
    return await realpath(path);
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  const parent = dirname(path);
  if (parent === path) return path;
  const realParent = await realpathAllowingMissing(parent, hops);
  const candidate = join(realParent, basename(path));
  let isLink = false;
  try {
    isLink = (await lstat(candidate)).isSymbolicLink();
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  if (!isLink) return candidate;
  // A dangling link: follow it by hand to the place a write would create.
  const target = await readlink(candidate);
  return realpathAllowingMissing(resolve(realParent, target), hops + 1);
}

/**
 * Creates a {@link Workspace} over `root`. Throws a `ToolError` (TOOL_DEFINITION_INVALID) when the
 * root does not exist or is not a directory.
 */
export function createWorkspace(root: string): Workspace {
  const absoluteRoot = resolve(root);
  let realRoot: string;
  try {
    realRoot = realpathSync(absoluteRoot);
    if (!statSync(realRoot).isDirectory()) throw new Error('not a directory');
  } catch (cause) {
    throw new ToolError(
      'TOOL_DEFINITION_INVALID',
      'workspace',
      `Workspace root "${absoluteRoot}" is not an existing directory: pass the project directory as root.`,
      { cause, details: { root: absoluteRoot } },
    );
  }

  const contains = (realPath: string) => isInside(realPath, realRoot);

  function display(realPath: string): string {
    const shown = relative(realRoot, realPath);
    return shown === '' ? '.' : shown.split(sep).join('/');
  }

  function outside(inputPath: string, toolName: string, resolvedPath: string, viaLink: boolean): ToolError {
    const why = viaLink
      ? `resolves through a symbolic link to "${resolvedPath}", which is outside the workspace root "${absoluteRoot}"`
      : `is outside the workspace root "${absoluteRoot}"`;
    return new ToolError(
      'TOOL_FAILED',
      toolName,
      `Path "${inputPath}" ${why}. Only files inside the workspace can be accessed.`,
      { details: { path: inputPath, resolvedPath, root: absoluteRoot } },
    );
  }

  function lexical(inputPath: string, toolName: string): string {
    if (typeof inputPath !== 'string' || inputPath.length === 0) {
      throw new ToolError(
        'TOOL_FAILED',
        toolName,
        'The path is empty: pass a file path inside the workspace.',
        {
          details: { root: absoluteRoot },
        },
      );
    }
    if (inputPath.includes('\0')) {
      throw new ToolError('TOOL_FAILED', toolName, `Path ${JSON.stringify(inputPath)} contains a NUL byte.`, {
        details: { path: inputPath },
      });
    }
    const absolute = isAbsolute(inputPath) ? resolve(inputPath) : resolve(absoluteRoot, inputPath);
    if (!isInside(absolute, absoluteRoot) && !isInside(absolute, realRoot)) {
      throw outside(inputPath, toolName, absolute, false);
    }
    return absolute;
  }

  async function resolveChecked(inputPath: string, toolName: string): Promise<string> {
    const absolute = lexical(inputPath, toolName);
    let real: string;
    try {
      real = await realpathAllowingMissing(absolute);
    } catch (cause) {
      throw new ToolError(
        'TOOL_FAILED',
        toolName,
        `Path "${inputPath}" cannot be resolved: ${(cause as Error).message}.`,
        {
          cause,
          details: { path: inputPath, root: absoluteRoot },
        },
      );
    }
    if (!contains(real)) throw outside(inputPath, toolName, real, true);
    return real;
  }

  function confinePattern(pattern: string, toolName: string, parameter: string): string {
    return confineGlobPattern(pattern, toolName, parameter, absoluteRoot);
  }

  async function confineResult(path: string): Promise<string | undefined> {
    const absolute = resolve(realRoot, path);
    if (!isInside(absolute, absoluteRoot) && !isInside(absolute, realRoot)) return undefined;
    const real = await realpath(absolute).catch(() => undefined);
    return real !== undefined && contains(real) ? real : undefined;
  }

  return {
    root: absoluteRoot,
    realRoot,
    contains,
    display,
    confinePattern,
    confineResult,
    async resolveExisting(inputPath, toolName) {
      const real = await resolveChecked(inputPath, toolName);
      try {
        await lstat(real);
      } catch {
        throw new ToolError(
          'TOOL_FAILED',
          toolName,
          `Path "${inputPath}" does not exist in the workspace "${absoluteRoot}".`,
          { details: { path: inputPath, root: absoluteRoot } },
        );
      }
      return real;
    },
    resolveForWrite: resolveChecked,
  };
}
