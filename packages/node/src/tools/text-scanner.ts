import { type FileHandle, open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

/** Bytes read from a file at a time. */
const CHUNK_BYTES = 64 * 1024;

/** What {@link scanTextBlocks} found. */
export interface TextScan {
  /** The file holds a NUL byte in the part that was read: it is treated as binary. */
  binary: boolean;
  /** The callback asked to stop before the end of the file. */
  stopped: boolean;
  /** Lines passed to the callback so far. */
  lines: number;
}

/**
 * Calls `onBlock` with the text of the file (a path, or a function opening it; the handle is closed
 * here) in blocks of whole lines, streaming (a large file is never
 * held whole). A block is lines joined by `\n`, without the final `\n`; `firstLine` is the 1-based
 * number of its first line and `lineCount` how many lines it holds. Return (or resolve to) `false`
 * to stop.
 * Scanning stops at the first chunk holding a NUL byte (the result says `binary`), before that
 * chunk is passed on. Decoding is UTF-8 (invalid bytes become U+FFFD).
 */
export async function scanTextBlocks(
  source: string | (() => Promise<FileHandle>),
  onBlock: (
    block: string,
    firstLine: number,
    lineCount: number,
  ) => boolean | undefined | Promise<boolean | undefined>,
  signal?: AbortSignal,
): Promise<TextScan> {
  const handle = typeof source === 'string' ? await open(source, 'r') : await source();
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const decoder = new StringDecoder('utf8');
    let carry = '';
    let line = 1;
    for (;;) {
      signal?.throwIfAborted();
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      const bytes = buffer.subarray(0, bytesRead);
      if (bytes.indexOf(0) !== -1) return { binary: true, stopped: true, lines: line - 1 };
      const text = carry + decoder.write(bytes);
      const lastNewline = text.lastIndexOf('\n');
      if (lastNewline === -1) {
        carry = text;
        continue;
      }
      const block = text.slice(0, lastNewline);
      carry = text.slice(lastNewline + 1);
      const count = countNewlines(block) + 1;
      if ((await onBlock(block, line, count)) === false)
        return { binary: false, stopped: true, lines: line - 1 + count };
      line += count;
    }
    carry += decoder.end();
    if (carry.length > 0) {
      if ((await onBlock(carry, line, 1)) === false) return { binary: false, stopped: true, lines: line };
      line += 1;
    }
    return { binary: false, stopped: false, lines: line - 1 };
  } finally {
    await handle.close();
  }
}

/** Number of `\n` in `text`. */
export function countNewlines(text: string): number {
  let count = 0;
  let index = text.indexOf('\n');
  while (index !== -1) {
    count++;
    index = text.indexOf('\n', index + 1);
  }
  return count;
}

/** A line as shown to the model: without a trailing `\r`, cut to `max` characters with a marker. */
export function displayLine(text: string, max: number): string {
  const line = text.endsWith('\r') ? text.slice(0, -1) : text;
  return line.length > max ? `${line.slice(0, max)}… [line cut: ${line.length - max} more characters]` : line;
}
