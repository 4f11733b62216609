import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { PersistenceError } from '@troupe/core';

// The store's files are opened with O_NONBLOCK and checked with fstat before anything is read or
// written: a FIFO (or a device) put in place of a journal, a snapshot or the status log would
// otherwise block `restore()` (or the whole process, for a synchronous read) until a writer comes.

/** O_NONBLOCK: opening a FIFO never waits for its other end. No effect on a regular file. */
const NONBLOCK = constants.O_NONBLOCK;
/** Flags to open a store file for reading. */
export const READ_FLAGS = constants.O_RDONLY | NONBLOCK;

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a file';
}

/** The error for a path that is not a regular file: names it and what it is. */
export function notRegularFile(path: string, stats: Stats): PersistenceError {
  return new PersistenceError(
    'PERSISTENCE_CORRUPT',
    `"${path}" is not a regular file (${kindOf(stats)}); the task store reads and writes only regular files. Remove it or move it out of the store directory.`,
    { path },
  );
}

/** Throws {@link notRegularFile} unless the open descriptor `fd` is a regular file. */
export function assertRegularFd(fd: number, path: string): void {
  const stats = fstatSync(fd);
  if (!stats.isFile()) throw notRegularFile(path, stats);
}

/**
 * Opens `path` for reading without blocking, and checks it is a regular file. Undefined when it
 * does not exist; a `PersistenceError` naming it when it is something else (a FIFO, a directory).
 */
export async function openRegularFile(path: string): Promise<FileHandle | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notRegularFile(path, stats);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Reads a regular file as UTF-8 (see {@link openRegularFile}); undefined when it does not exist. */
export async function readRegularFile(path: string): Promise<string | undefined> {
  const handle = await openRegularFile(path);
  if (!handle) return undefined;
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Reads a regular file as UTF-8, synchronously (lock and runner files). Throws as `readFileSync`
 * does (ENOENT when missing), and a `PersistenceError` when it is not a regular file.
 */
export function readRegularFileSync(path: string): string {
  const fd = openSync(path, READ_FLAGS);
  try {
    assertRegularFd(fd, path);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
