import { toolFailure } from '@troupe/core/workspace';

/**
 * A folder of the Origin Private File System that tools are confined to. Paths are
 * `/`-separated, relative to the folder (a leading `/` means the folder itself); `.` segments are
 * dropped and a `..` that would climb above the folder is refused. OPFS has no symbolic links, so
 * a resolved path cannot lead outside.
 */
export class OpfsWorkspace {
  /**
   * @param root the folder the tools are confined to.
   * @param name how messages name the workspace (default: the folder's name).
   */
  constructor(
    readonly root: FileSystemDirectoryHandle,
    readonly name: string = root.name,
  ) {}

  /** The path's segments, normalised; throws a tool failure when it leaves the workspace. */
  segments(path: string, tool: string): string[] {
    const result: string[] = [];
    for (const segment of path.replaceAll('\\', '/').split('/')) {
      if (segment === '' || segment === '.') continue;
      if (segment === '..') {
        if (result.length === 0) {
          throw toolFailure(tool, `"${path}" is outside the workspace: paths must stay inside it.`, { path });
        }
        result.pop();
      } else result.push(segment);
    }
    return result;
  }

  /** The normalised display path (`.` for the root). */
  display(segments: readonly string[]): string {
    return segments.length === 0 ? '.' : segments.join('/');
  }

  /** The directory at `segments`, created when `create` is set; undefined when absent. */
  async directory(
    segments: readonly string[],
    create = false,
  ): Promise<FileSystemDirectoryHandle | undefined> {
    let current = this.root;
    for (const segment of segments) {
      try {
        current = await current.getDirectoryHandle(segment, { create });
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    }
    return current;
  }

  /** What is at `segments`: a file, a directory, or nothing. */
  async entry(
    segments: readonly string[],
  ): Promise<FileSystemFileHandle | FileSystemDirectoryHandle | undefined> {
    if (segments.length === 0) return this.root;
    const parent = await this.directory(segments.slice(0, -1));
    if (!parent) return undefined;
    const name = segments[segments.length - 1]!;
    try {
      return await parent.getFileHandle(name);
    } catch (error) {
      if (!isMissing(error) && !isTypeMismatch(error)) throw error;
    }
    try {
      return await parent.getDirectoryHandle(name);
    } catch (error) {
      if (isMissing(error) || isTypeMismatch(error)) return undefined;
      throw error;
    }
  }

  /** Writes a whole file, creating parent directories. */
  async writeFile(segments: readonly string[], content: string): Promise<void> {
    const parent = (await this.directory(segments.slice(0, -1), true))!;
    const handle = await parent.getFileHandle(segments[segments.length - 1]!, { create: true });
    const writable = await handle.createWritable();
    await writable.write(content);
    await writable.close();
  }
}

function isMissing(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'NotFoundError';
}

function isTypeMismatch(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'TypeMismatchError';
}

/**
 * Opens (creating it) the workspace folder `name` under the origin's private file system root.
 * Throws when OPFS is unavailable (an insecure context, or a browser without it).
 */
export async function openOpfsWorkspace(name: string): Promise<OpfsWorkspace> {
  if (!globalThis.navigator?.storage?.getDirectory) {
    throw new Error(
      'The Origin Private File System is not available here (it needs a browser page or worker in a secure context). In Node, use createNodeTools from @troupe/node for workspace tools.',
    );
  }
  const root = await navigator.storage.getDirectory();
  let folder = root;
  for (const segment of name.split('/').filter(Boolean)) {
    folder = await folder.getDirectoryHandle(segment, { create: true });
  }
  return new OpfsWorkspace(folder, name);
}
