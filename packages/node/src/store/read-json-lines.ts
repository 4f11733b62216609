import { PersistenceError, type StoreWarning } from '@troupe/core';
import type { Parsed } from '@troupe/core/store';
import { readRegularFile } from './regular-files.js';

/** One usable line of a JSONL file. */
export interface JsonLine<T> {
  value: T;
  /** 1-based line number. */
  line: number;
  /** The line as written. */
  text: string;
}

/** What {@link readJsonLines} found. */
export interface JsonLines<T> {
  lines: JsonLine<T>[];
  warnings: StoreWarning[];
}

/**
 * Reads a JSONL file written by the file store. Never fails on content: a torn last line (the
 * process was killed mid-write), a line that is not valid JSON, a malformed record or one with an
 * unknown schema version is skipped with a warning naming the file and line; the rest is read.
 * A missing file reads as empty. Anything but a regular file (a FIFO) and other read errors
 * (permissions) are thrown as a `PersistenceError` naming the file.
 */
export async function readJsonLines<T>(
  path: string,
  parse: (text: string) => Parsed<T>,
): Promise<JsonLines<T>> {
  let content: string | undefined;
  try {
    content = await readRegularFile(path);
  } catch (error) {
    if (PersistenceError.isInstance(error)) throw error;
    throw new PersistenceError(
      'PERSISTENCE_FAILED',
      `Could not read "${path}": ${(error as Error).message}`,
      { path, cause: error },
    );
  }
  if (content === undefined) return { lines: [], warnings: [] };
  const lines: JsonLine<T>[] = [];
  const warnings: StoreWarning[] = [];
  const parts = content.split('\n');
  const complete = content.endsWith('\n') ? parts.length - 1 : parts.length;
  for (let index = 0; index < complete; index++) {
    const text = parts[index]!;
    if (text.trim() === '') continue;
    const line = index + 1;
    const parsed = parse(text);
    // A last line without its newline is torn, unless the cut fell just before the newline.
    if (index === parts.length - 1 && !parsed.ok) {
      warnings.push({
        code: 'PERSISTENCE_CORRUPT',
        message: `${path}:${line}: the last line is incomplete (a write was cut off, probably by a crash); it was skipped.`,
        path,
        line,
      });
      continue;
    }
    if (parsed.ok) lines.push({ value: parsed.value, line, text });
    else
      warnings.push({
        code: parsed.code,
        message: `${path}:${line}: ${parsed.message}; the line was skipped.`,
        path,
        line,
      });
  }
  return { lines, warnings };
}
