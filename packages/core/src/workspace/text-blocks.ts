import { countNewlines } from './text.js';

/** What {@link scanTextBlocks} found. */
export interface TextScan {
  /** The text holds a NUL character in the part that was read: it is treated as binary. */
  binary: boolean;
  /** The callback asked to stop before the end. */
  stopped: boolean;
  /** Lines passed to the callback so far. */
  lines: number;
}

/**
 * Calls `onBlock` with `chunks` (a file's text, see `WorkspaceFileSystem.readText`) in blocks of
 * whole lines, streaming (a large file is never held whole). A block is lines joined by `\n`,
 * without the final `\n`; `firstLine` is the 1-based number of its first line and `lineCount` how
 * many lines it holds. Return (or resolve to) `false` to stop. Scanning stops at the first chunk
 * holding a NUL character (the result says `binary`), before that chunk is passed on.
 */
export async function scanTextBlocks(
  chunks: AsyncIterable<string>,
  onBlock: (
    block: string,
    firstLine: number,
    lineCount: number,
  ) => boolean | undefined | Promise<boolean | undefined>,
  signal?: AbortSignal,
): Promise<TextScan> {
  let carry = '';
  let line = 1;
  for await (const chunk of chunks) {
    signal?.throwIfAborted();
    if (chunk.includes('\0')) return { binary: true, stopped: true, lines: line - 1 };
    const text = carry + chunk;
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
  signal?.throwIfAborted();
  if (carry.length > 0) {
    if ((await onBlock(carry, line, 1)) === false) return { binary: false, stopped: true, lines: line };
    line += 1;
  }
  return { binary: false, stopped: false, lines: line - 1 };
}

/** The whole text of `chunks`, or `undefined` when it holds a NUL character (a binary file). */
export async function readWholeText(chunks: AsyncIterable<string>): Promise<string | undefined> {
  const parts: string[] = [];
  for await (const chunk of chunks) {
    if (chunk.includes('\0')) return undefined;
    parts.push(chunk);
  }
  return parts.join('');
}
