import { closeSync, constants, existsSync, fstatSync, openSync, readlinkSync, realpathSync } from 'node:fs';
import { type FileHandle, mkdir, open, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { toolFailure } from '@troupe/core/workspace';

// Node has no openat(2). On Linux, /proc/self/fd/N names the directory an open handle refers to,
// whatever happened to its path since: a path below it is looked up in that very directory. So a
// directory is opened once, its real place checked, and everything below it is reached through
// the handle with O_NOFOLLOW, leaving no window for a symbolic link swapped in after the check.
const PROC_FD = '/proc/self/fd';
const hasProcFd = existsSync(PROC_FD);

/** Thrown when a path that was checked leads outside the workspace by the time it is opened. */
export class ConfinementError extends Error {
  constructor(readonly path: string) {
    super(
      `"${path}" changed while it was being opened (a symbolic link was swapped in) and now leads outside the workspace; nothing was done.`,
    );
    this.name = 'ConfinementError';
  }
}

/** Thrown when a file opened for reading turns out not to be a regular file (a FIFO, a device). */
export class NotRegularFileError extends Error {
  constructor(readonly path: string) {
    super(`"${path}" is not a regular file (it was replaced while being opened); nothing was read.`);
    this.name = 'NotRegularFileError';
  }
}

/**
 * A `catch` handler for a tool: turns a {@link ConfinementError} or {@link NotRegularFileError}
 * into the tool's error for the model, and rethrows anything else.
 */
export function confinedFailure(toolName: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof ConfinementError || error instanceof NotRegularFileError)
      throw toolFailure(toolName, error.message, { path: error.path });
    throw error;
  };
}

/**
 * Opens a regular file for reading through {@link openConfined} without ever waiting: `O_NONBLOCK`
 * keeps a FIFO swapped in after the caller's check from blocking the open (and a thread) until
 * a writer comes, and anything but a regular file is closed again with {@link NotRegularFileError}.
 */
export async function openRegularConfined(realPath: string, realRoot: string): Promise<FileHandle> {
  const handle = await openConfined(realPath, realRoot, constants.O_RDONLY | constants.O_NONBLOCK);
  if ((await handle.stat()).isFile()) return handle;
  await handle.close();
  throw new NotRegularFileError(realPath);
}

function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The path to reach `name` inside an open directory handle. */
function below(directory: FileHandle, name: string): string {
  return `${PROC_FD}/${directory.fd}/${name}`;
}

/** Opens a directory by its checked real path and verifies where the handle really is. */
async function openDirectory(realDir: string, realRoot: string): Promise<FileHandle> {
  const handle = await open(realDir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    const where = hasProcFd ? await readlink(`${PROC_FD}/${handle.fd}`) : await realpath(realDir);
    if (!inside(where, realRoot)) throw new ConfinementError(realDir);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Opens the file at `realPath` (already resolved and checked to be inside `realRoot`) so that no
 * symbolic link swapped into the path since the check can lead outside: the parent directory is
 * opened and verified, the file is opened below that handle without following a link. With
 * `createParents`, missing parent directories are made the same way, one below the other.
 * Throws {@link ConfinementError} when the path now leads outside. Race-free where
 * `/proc/self/fd` exists (Linux); elsewhere the parent's real path is re-checked after opening.
 */
export async function openConfined(
  realPath: string,
  realRoot: string,
  flags: number,
  options: { mode?: number; createParents?: boolean } = {},
): Promise<FileHandle> {
  const directory = options.createParents
    ? await makeParents(dirname(realPath), realRoot)
    : await openDirectory(dirname(realPath), realRoot);
  try {
    const target = hasProcFd ? below(directory, basename(realPath)) : realPath;
    return await open(target, flags | constants.O_NOFOLLOW, options.mode ?? 0o666);
  } catch (error) {
    // The last step is a link now: it was swapped in after the check.
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new ConfinementError(realPath);
    throw error;
  } finally {
    await directory.close();
  }
}

/**
 * Runs `use` with a path that reaches the directory `realDir` (already resolved and checked)
 * through a verified handle, held open until `use` settles: list it and look at its entries
 * (without following links) there. Throws {@link ConfinementError} when it now leads outside.
 */
export async function inConfinedDirectory<T>(
  realDir: string,
  realRoot: string,
  use: (path: string) => Promise<T>,
): Promise<T> {
  const directory = await openDirectory(realDir, realRoot);
  try {
    return await use(hasProcFd ? `${PROC_FD}/${directory.fd}` : realDir);
  } finally {
    await directory.close();
  }
}

/** Creates the missing directories of `realDir` below its deepest existing, verified ancestor. */
async function makeParents(realDir: string, realRoot: string): Promise<FileHandle> {
  const missing: string[] = [];
  let existing = realDir;
  while (!existsSync(existing) && inside(dirname(existing), realRoot) && dirname(existing) !== existing) {
    missing.unshift(basename(existing));
    existing = dirname(existing);
  }
  let directory = await openDirectory(existing, realRoot);
  for (const name of missing) {
    try {
      const path = hasProcFd ? below(directory, name) : join(existing, name);
      await mkdir(path).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      const next = hasProcFd
        ? await open(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW)
        : await openDirectory(path, realRoot);
      await directory.close();
      directory = next;
      existing = join(existing, name);
    } catch (error) {
      await directory.close();
      if (
        (error as NodeJS.ErrnoException).code === 'ELOOP' ||
        (error as NodeJS.ErrnoException).code === 'ENOTDIR'
      )
        throw new ConfinementError(realDir);
      throw error;
    }
  }
  return directory;
}

/** Bytes read from a file at a time. */
const CHUNK_BYTES = 64 * 1024;

/**
 * A regular file's text (already resolved and checked), opened through {@link openRegularConfined}
 * and decoded as UTF-8 in chunks of 64 KiB; the file is closed when the iteration ends or stops.
 */
export async function* readTextConfined(
  realPath: string,
  realRoot: string,
  signal?: AbortSignal,
): AsyncGenerator<string> {
  const handle = await openRegularConfined(realPath, realRoot);
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const decoder = new StringDecoder('utf8');
    for (;;) {
      signal?.throwIfAborted();
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      yield decoder.write(buffer.subarray(0, bytesRead));
    }
    const rest = decoder.end();
    if (rest.length > 0) yield rest;
  } finally {
    await handle.close();
  }
}

/**
 * Opens for reading the regular files `names` of the directory `realDir` (already resolved and
 * checked) the way {@link openConfined} does, with one verified directory handle for them all, and
 * synchronously: a batch of small system calls, cheaper than a thread-pool round trip each.
 * Returns a descriptor per name (the caller closes it), or `undefined` for a name that is gone,
 * is a link now, is no regular file (a FIFO is never waited on) or cannot be read. Returns only
 * `undefined`s when the directory itself now leads outside `realRoot`. Throws (having closed
 * what it opened) when out of descriptors (`EMFILE`, `ENFILE`).
 */
export function openFilesInDirectorySync(
  realDir: string,
  names: readonly string[],
  realRoot: string,
): (number | undefined)[] {
  let directory: number;
  try {
    directory = openSync(realDir, constants.O_RDONLY | constants.O_DIRECTORY);
  } catch {
    return names.map(() => undefined);
  }
  try {
    const where = hasProcFd ? readlinkSync(`${PROC_FD}/${directory}`) : realpathSync(realDir);
    if (!inside(where, realRoot)) return names.map(() => undefined);
    const opened: (number | undefined)[] = [];
    for (const name of names) {
      let fd: number | undefined;
      try {
        const path = hasProcFd ? `${PROC_FD}/${directory}/${name}` : join(realDir, name);
        fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
        if (fstatSync(fd).isFile()) {
          opened.push(fd);
          continue;
        }
      } catch (error) {
        // Out of descriptors: fail rather than leave files out of the results unsaid.
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EMFILE' || code === 'ENFILE') {
          for (const open of opened) if (open !== undefined) closeSync(open);
          throw error;
        }
        // Otherwise gone, unreadable, or a link swapped in: not opened.
      }
      if (fd !== undefined) closeSync(fd);
      opened.push(undefined);
    }
    return opened;
  } finally {
    closeSync(directory);
  }
}

/**
 * Writes `content` to an already-resolved real path inside `realRoot`, creating parent directories,
 * through directory handles verified once and without following a symbolic link (see
 * {@link openConfined}): a link swapped into the path after it was checked makes the write fail
 * ({@link ConfinementError}) rather than escape.
 */
export async function writeConfined(realPath: string, content: string, realRoot: string): Promise<void> {
  // O_NONBLOCK: a FIFO swapped in after the check fails to open (ENXIO) instead of waiting for a
  // reader; it does nothing to a regular file.
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NONBLOCK;
  const handle = await openConfined(realPath, realRoot, flags, { createParents: true });
  try {
    if (!(await handle.stat()).isFile())
      throw new Error(`${realPath} is not a regular file; nothing was written.`);
    await handle.writeFile(content, 'utf8');
  } finally {
    await handle.close();
  }
}
