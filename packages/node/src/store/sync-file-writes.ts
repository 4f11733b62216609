import {
  closeSync,
  constants,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  openSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { assertRegularFd } from './regular-files.js';

let temporaryCounter = 0;

// O_NONBLOCK: a FIFO in place of a journal or the log fails the write (ENXIO, or not a regular
// file after fstat) instead of blocking the process until a reader comes.
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK;
const APPEND_READ_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK;

function writeAll(fd: number, data: Buffer): void {
  let offset = 0;
  while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
}

/** Whether a non-empty file's last byte is not a newline (a line torn by a crash mid-write). */
function endsTorn(fd: number): boolean {
  const { size } = fstatSync(fd);
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}

/** Options of {@link appendLinesSync}. */
export interface AppendOptions {
  /** Check first whether the file ends in a torn line, and end it with a newline if so. */
  repairTornEnd: boolean;
  /** fdatasync after writing. */
  fsync: boolean;
  /**
   * Check after writing that the path still names the file written to (a concurrent `prune`
   * may have replaced it) and write the lines again to the new file if not. Lines may then appear
   * twice; readers drop exact duplicates.
   */
  followReplacement: boolean;
}

/**
 * Appends whole lines (`text` ends with `\n`) with one O_APPEND write, so that lines from several
 * writers (processes included) never interleave on a local file system.
 */
export function appendLinesSync(path: string, text: string, options: AppendOptions): void {
  for (let attempt = 0; attempt < 3; attempt++) {
    const fd = openSync(path, options.repairTornEnd ? APPEND_READ_FLAGS : APPEND_FLAGS);
    let replaced = false;
    try {
      assertRegularFd(fd, path);
      const prefix = options.repairTornEnd && endsTorn(fd) ? '\n' : '';
      writeAll(fd, Buffer.from(prefix + text, 'utf8'));
      if (options.fsync) fdatasyncSync(fd);
      if (options.followReplacement) {
        const written = fstatSync(fd);
        const current = statSync(path, { throwIfNoEntry: false });
        replaced = !current || current.ino !== written.ino || current.dev !== written.dev;
      }
    } finally {
      closeSync(fd);
    }
    if (!replaced) return;
  }
}

/**
 * Replaces `path` with `text` atomically: writes a temporary file in the same directory, then
 * renames it over `path`, so a reader sees the old or the new document, never a part.
 */
export function writeFileAtomicSync(path: string, text: string, fsync: boolean): void {
  temporaryCounter = (temporaryCounter + 1) % Number.MAX_SAFE_INTEGER;
  const temporary = `${path}.${process.pid}.${temporaryCounter}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    writeAll(fd, Buffer.from(text, 'utf8'));
    if (fsync) fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temporary);
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temporary, path);
  } catch (error) {
    unlinkSync(temporary);
    throw error;
  }
}

/** fsyncs a directory so that renames and new files in it survive a power loss. */
export function syncDirectorySync(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
