import { open } from 'node:fs/promises';
import { newestFirst, type TaskPosition } from '@troupe/core/store';

/** The last line of `tasks.index`: which part of which `tasks.jsonl` the index folds. */
export interface IndexHeader {
  v: 1;
  /** The status log folded: its file identity, and how far (bytes, lines). */
  dev: number;
  ino: number;
  offset: number;
  line: number;
  /** Tasks in the index. */
  count: number;
  /** Every 256th entry: its position in newest-first order and its byte offset in the index. */
  marks: [createdAt: number, taskId: string, offset: number][];
}

const CHUNK = 1 << 16;
const ENTRY_START = '{"k":[';

/**
 * Reads the header of a `tasks.index`: its last line. Throws when the file has none that reads as
 * a version-1 header (the index is then rebuilt from the log).
 */
export async function readIndexHeader(path: string): Promise<IndexHeader> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    let text = '';
    for (let end = size; end > 0; ) {
      const start = Math.max(0, end - CHUNK);
      const bytes = Buffer.alloc(end - start);
      await handle.read(bytes, 0, bytes.length, start);
      text = bytes.toString('latin1') + text;
      end = start;
      const newline = text.lastIndexOf('\n', text.length - 2);
      if (newline >= 0 || start === 0) {
        const line = Buffer.from(text.slice(newline + 1), 'latin1').toString('utf8');
        const header = JSON.parse(line) as IndexHeader;
        if (header.v !== 1 || !Array.isArray(header.marks) || typeof header.offset !== 'number')
          throw new Error(`${path}: not a version-1 index header`);
        return header;
      }
    }
    throw new Error(`${path}: empty`);
  } finally {
    await handle.close();
  }
}

/** The entry lines of a `tasks.index`, read forward in chunks from a byte offset. */
export class IndexLines {
  constructor(
    private readonly path: string,
    private readonly header: IndexHeader,
  ) {}

  /** The position an entry line sorts at, read from its start (`{"k":[createdAt,"taskId"],`). */
  static keyOf(line: string): TaskPosition {
    const comma = line.indexOf(',', ENTRY_START.length);
    const end = line.indexOf('],"o":', comma);
    return {
      createdAt: Number(line.slice(ENTRY_START.length, comma)),
      taskId: JSON.parse(line.slice(comma + 1, end)) as string,
    };
  }

  /** The byte offset of the last mark at or before `position` (where a page after it starts). */
  markBefore(position: TaskPosition): number {
    let offset = 0;
    for (const [createdAt, taskId, at] of this.header.marks) {
      if (newestFirst({ createdAt, taskId }, position) > 0) break;
      offset = at;
    }
    return offset;
  }

  /** Entry lines from `offset` (a line start) to the header. */
  async *from(offset: number): AsyncGenerator<string> {
    const handle = await open(this.path, 'r');
    try {
      let position = offset;
      let rest = Buffer.alloc(0);
      for (;;) {
        const bytes = Buffer.alloc(CHUNK);
        const { bytesRead } = await handle.read(bytes, 0, CHUNK, position);
        if (bytesRead === 0) return;
        position += bytesRead;
        let buffer =
          rest.length > 0
            ? Buffer.concat([rest, bytes.subarray(0, bytesRead)])
            : bytes.subarray(0, bytesRead);
        let start = 0;
        for (let newline = buffer.indexOf(0x0a); newline >= 0; newline = buffer.indexOf(0x0a, start)) {
          const line = buffer.toString('utf8', start, newline);
          start = newline + 1;
          if (!line.startsWith(ENTRY_START)) return;
          yield line;
        }
        buffer = buffer.subarray(start);
        rest = Buffer.from(buffer);
      }
    } finally {
      await handle.close();
    }
  }

  /** The entry line of `taskId`, if the index has one. */
  async find(taskId: string): Promise<string | undefined> {
    const needle = `,${JSON.stringify(taskId)}],"o":`;
    for await (const line of this.from(0)) if (line.includes(needle)) return line;
    return undefined;
  }
}
