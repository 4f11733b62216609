import {
  createGlobFilter,
  type GlobFilter,
  type GlobRequest,
  toolFailure,
  type WorkspaceDirectoryEntry,
  type WorkspaceFileSystem,
} from '@troupe/core/workspace';
import type { OpfsWorkspace } from './opfs-workspace.js';

// A resolved path here is the normalised workspace path itself: `.` for the folder, `a/b` below it.
const segmentsOf = (path: string): string[] => (path === '.' || path === '' ? [] : path.split('/'));

/** The files below `directory` (relative path `at`) that `filter` keeps, as paths relative to `base`. */
async function collect(
  directory: FileSystemDirectoryHandle,
  at: string,
  base: string,
  filter: GlobFilter,
  found: string[],
  signal?: AbortSignal,
): Promise<void> {
  for await (const [name, handle] of directory.entries()) {
    signal?.throwIfAborted();
    const path = at === '' ? name : `${at}/${name}`;
    if (handle.kind === 'file') {
      if (filter.matches(path)) found.push(base === '' ? path : `${base}/${path}`);
    } else if (!filter.skipsDirectory(path)) {
      await collect(handle as FileSystemDirectoryHandle, path, base, filter, found, signal);
    }
  }
}

/**
 * The `WorkspaceFileSystem` of an Origin Private File System folder, for core's workspace tools:
 * paths are `/`-separated and relative to the folder (a leading `/` is the folder itself), a `..`
 * that climbs out is refused, and OPFS has no symbolic links, so no path leaves the folder.
 * `grep` uses core's JavaScript scan on the page's thread.
 */
export function createOpfsFileSystem(workspace: OpfsWorkspace): WorkspaceFileSystem {
  const resolve = (path: string, toolName: string) => workspace.display(workspace.segments(path, toolName));
  async function fileAt(path: string, toolName: string): Promise<FileSystemFileHandle> {
    const entry = await workspace.entry(segmentsOf(path));
    if (entry?.kind !== 'file') throw toolFailure(toolName, `"${path}" is not a regular file.`, { path });
    return entry as FileSystemFileHandle;
  }
  return {
    root: workspace.name,
    rootPath: '.',
    async resolveExisting(path, toolName) {
      const resolved = resolve(path, toolName);
      if (!(await workspace.entry(segmentsOf(resolved)))) {
        throw toolFailure(toolName, `Path "${path}" does not exist in the workspace "${workspace.name}".`, {
          path,
          root: workspace.name,
        });
      }
      return resolved;
    },
    resolveForWrite: async (path, toolName) => resolve(path, toolName),
    locate: (path) => path,
    display: (path) => path,
    async stat(path) {
      const entry = await workspace.entry(segmentsOf(path));
      if (!entry) return undefined;
      if (entry.kind === 'directory') return { kind: 'directory', size: 0, modifiedMs: 0 };
      const file = await (entry as FileSystemFileHandle).getFile();
      return { kind: 'file', size: file.size, modifiedMs: file.lastModified };
    },
    // One chunk: a page's workspace files are small, and the file API reads them whole at once.
    async *readText(path, toolName) {
      yield await (await fileAt(path, toolName)).getFile().then((file) => file.text());
    },
    async writeText(path, content) {
      await workspace.writeFile(segmentsOf(path), content);
    },
    async list(path) {
      const directory = await workspace.directory(segmentsOf(path));
      const entries: WorkspaceDirectoryEntry[] = [];
      if (!directory) return entries;
      for await (const [name, handle] of directory.entries()) {
        if (handle.kind === 'directory') entries.push({ name, kind: 'directory' });
        else
          entries.push({ name, kind: 'file', size: (await (handle as FileSystemFileHandle).getFile()).size });
      }
      return entries;
    },
    async glob(request: GlobRequest) {
      const directory = await workspace.directory(segmentsOf(request.directory));
      const found: string[] = [];
      if (!directory) return found;
      const base = request.directory === '.' ? '' : request.directory;
      await collect(
        directory,
        '',
        base,
        createGlobFilter(request.patterns, request.ignore),
        found,
        request.signal,
      );
      return found;
    },
  };
}
