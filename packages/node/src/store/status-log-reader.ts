import { createHash } from 'node:crypto';
import { PersistenceError, type StoreWarning, type TaskStatusRecord } from '@troupe/core';
import type { StatusRead } from '@troupe/core/store';
import { openRegularFile } from './regular-files.js';
import { parseStatusLine } from './status-log.js';

/** Where a reader of `tasks.jsonl` stands: the file it read, how far, and the lines it applied. */
export interface StatusLogPosition {
  dev: number;
  ino: number;
  /** Bytes of whole lines read so far. */
  offset: number;
  /** Lines read so far. */
  line: number;
  /** Digests of the lines returned: an exact duplicate (written twice around a prune) counts once. */
  seen: Set<string>;
}

/** Where a record's line is in the log: its byte offset and length (without the newline). */
export interface LineSpan {
  offset: number;
  length: number;
}

const fresh = (dev: number, ino: number): StatusLogPosition => ({
  dev,
  ino,
  offset: 0,
  line: 0,
  seen: new Set(),
});

/**
 * Reads `tasks.jsonl` from `position` on (all of it when undefined, or when the file was replaced
 * by a prune or cut shorter: then `restarted`). Only whole lines move the position on; a read from
 * the start also returns a last line without its newline when it parses (the cut fell just before
 * the newline) and warns about it when it does not (torn by a crash). Lines that do not parse are
 * skipped with a warning naming the file and line. A FIFO or another non-regular file in place of
 * the log, or a read error, is a `PersistenceError` naming the file.
 */
export async function readStatusLog(
  path: string,
  position?: StatusLogPosition,
): Promise<StatusRead<StatusLogPosition> & { spans: LineSpan[] }> {
  let handle: Awaited<ReturnType<typeof openRegularFile>>;
  try {
    handle = await openRegularFile(path);
  } catch (error) {
    throw readFailure(path, error);
  }
  if (!handle)
    return {
      records: [],
      warnings: [],
      spans: [],
      position: fresh(-1, -1),
      restarted: position !== undefined,
    };
  try {
    const { dev, ino, size } = await handle.stat();
    const restarted =
      position !== undefined && (position.dev !== dev || position.ino !== ino || size < position.offset);
    const at = position === undefined || restarted ? fresh(dev, ino) : position;
    const records: TaskStatusRecord[] = [];
    const warnings: StoreWarning[] = [];
    const spans: LineSpan[] = [];
    if (size === at.offset) return { records, warnings, spans, position: at, restarted };
    const bytes = Buffer.alloc(size - at.offset);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, at.offset);
    const end = bytes.lastIndexOf(0x0a, bytesRead - 1) + 1;
    const texts = bytes.toString('utf8', 0, end).split('\n');
    texts.pop();
    let offset = at.offset;
    const apply = (text: string, line: number, torn: boolean) => {
      const start = offset;
      offset += Buffer.byteLength(text) + 1;
      if (text.trim() === '') return;
      const digest = createHash('sha1').update(text).digest('base64');
      if (at.seen.has(digest)) return;
      const parsed = parseStatusLine(text);
      if (parsed.ok) {
        at.seen.add(digest);
        records.push(parsed.value);
        spans.push({ offset: start, length: offset - start - 1 });
        return;
      }
      warnings.push({
        code: torn ? 'PERSISTENCE_CORRUPT' : parsed.code,
        message: torn
          ? `${path}:${line}: the last line is incomplete (a write was cut off, probably by a crash); it was skipped.`
          : `${path}:${line}: ${parsed.message}; the line was skipped.`,
        path,
        line,
      });
    };
    for (const text of texts) apply(text, ++at.line, false);
    at.offset += end;
    if (position === undefined && end < bytesRead)
      apply(bytes.toString('utf8', end, bytesRead), at.line + 1, true);
    return { records, warnings, spans, position: at, restarted };
  } catch (error) {
    throw readFailure(path, error);
  } finally {
    await handle.close();
  }
}

function readFailure(path: string, error: unknown): PersistenceError {
  if (PersistenceError.isInstance(error)) return error;
  return new PersistenceError('PERSISTENCE_FAILED', `Could not read "${path}": ${(error as Error).message}`, {
    path,
    cause: error,
  });
}
