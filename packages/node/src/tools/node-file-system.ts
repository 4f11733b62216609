import { lstat, readdir, readlink, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type {
  GlobRequest,
  ScanSource,
  WorkspaceDirectoryEntry,
  WorkspaceFileSystem,
} from '@troupe/core/workspace';
import { glob } from 'tinyglobby';
import { confinedFailure, inConfinedDirectory, readTextConfined, writeConfined } from './confined-open.js';
import { isRipgrepAvailable, ripgrepEngine } from './grep-ripgrep.js';
import type { NodeToolsContext } from './node-tools-options.js';
import { startRegexWorker } from './regex-worker.js';
import type { Workspace } from './workspace.js';

/**
 * Files below `request.directory` matching its globs, through tinyglobby (dot files included,
 * links not followed), as paths relative to `realRoot`, `/`-separated.
 */
export async function globFiles(realRoot: string, request: GlobRequest): Promise<string[]> {
  const found = await glob([...request.patterns], {
    cwd: request.directory,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    absolute: false,
    ignore: [...request.ignore],
    ...(request.signal ? { signal: request.signal } : {}),
  });
  if (request.directory === realRoot) return found;
  return found.map((path) => relative(realRoot, join(request.directory, path)).split(sep).join('/'));
}

/**
 * What core's JavaScript scan needs of a Node workspace whose real root is `realRoot`: files listed
 * by tinyglobby, each read through a verified parent directory, the pattern in a worker thread.
 */
export function scanSource(realRoot: string): ScanSource {
  return {
    glob: (request) => globFiles(realRoot, request),
    locate: (path) => join(realRoot, path),
    readText(path, toolName, signal) {
      const chunks = readTextConfined(path, realRoot, signal);
      const fail = confinedFailure(toolName);
      return {
        [Symbol.asyncIterator]: () => ({
          next: () => chunks.next().catch(fail),
          return: () => chunks.return(undefined),
        }),
      };
    },
    startPatternRunner: startRegexWorker,
  };
}

/** The entries of a directory reached at `directory`, looked at without following links. */
async function listEntries(directory: string): Promise<WorkspaceDirectoryEntry[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const listed: WorkspaceDirectoryEntry[] = [];
  for (const entry of entries) {
    const full = join(directory, entry.name);
    const { name } = entry;
    if (entry.isDirectory()) listed.push({ name, kind: 'directory' });
    else if (entry.isSymbolicLink())
      listed.push({ name, kind: 'link', target: await readlink(full).catch(() => '?') });
    else if (entry.isFile()) {
      const info = await lstat(full).catch(() => undefined);
      listed.push(info ? { name, kind: 'file', size: info.size } : { name, kind: 'file' });
    } else listed.push({ name, kind: 'other' });
  }
  return listed;
}

/**
 * The {@link WorkspaceFileSystem} of a Node {@link Workspace}: paths resolved and confined by the
 * workspace (symbolic links resolved and re-checked), every file opened through a verified parent
 * directory without following a link and without waiting on a FIFO (`confined-open.ts`), `glob`
 * through tinyglobby, `grep` through ripgrep when `ripgrep` names one that runs, and the
 * JavaScript scan's pattern in a worker thread under its time limit.
 */
export function createNodeFileSystem(
  workspace: Workspace,
  ripgrep: string | false = 'rg',
): WorkspaceFileSystem {
  const { realRoot } = workspace;
  return {
    ...scanSource(realRoot),
    root: workspace.root,
    rootPath: realRoot,
    resolveExisting: (path, toolName) => workspace.resolveExisting(path, toolName),
    resolveForWrite: (path, toolName) => workspace.resolveForWrite(path, toolName),
    display: (path) => workspace.display(path),
    async stat(path) {
      const info = await stat(path).catch(() => undefined);
      if (!info) return undefined;
      const kind = info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other';
      return { kind, size: info.size, modifiedMs: info.mtimeMs };
    },
    writeText: (path, content, toolName) =>
      writeConfined(path, content, realRoot).catch(confinedFailure(toolName)),
    list: (path, toolName) =>
      inConfinedDirectory(path, realRoot, listEntries).catch(confinedFailure(toolName)),
    ...(ripgrep === false
      ? {}
      : {
          search: {
            syntax: 'ripgrep syntax; JavaScript syntax such as look-around also works',
            async engine(query, sink) {
              if (!(await isRipgrepAvailable(ripgrep))) return false;
              await ripgrepEngine(ripgrep)(query, sink);
              return true;
            },
          },
        }),
  };
}

const fileSystems = new WeakMap<NodeToolsContext, WorkspaceFileSystem>();

/** The file system of one set of Node tools (one per {@link NodeToolsContext}). */
export function nodeFileSystemOf(context: NodeToolsContext): WorkspaceFileSystem {
  let fileSystem = fileSystems.get(context);
  if (!fileSystem) {
    fileSystem = createNodeFileSystem(context.workspace, context.ripgrep);
    fileSystems.set(context, fileSystem);
  }
  return fileSystem;
}
