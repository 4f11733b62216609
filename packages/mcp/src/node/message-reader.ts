import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { OversizedMessage } from '../message-limit.js';

/** What a line of a stdio server's output was. */
export type ReadResult =
  | { type: 'message'; message: JSONRPCMessage }
  | { type: 'invalid'; error: Error }
  | { type: 'oversized'; message: OversizedMessage };

const NEWLINE = 0x0a;

/**
 * Splits a stdio server's output into JSON-RPC messages, one per line, like the SDK's
 * `ReadBuffer`, but a line over `maxBytes` never grows the buffer past the limit and never throws:
 * it is skipped to its end, keeping only its size and its first and last kilobyte (see
 * {@link OversizedMessage}), and the lines after it are read as usual.
 */
export class MessageReader {
  private readonly maxBytes: number;
  private pieces: Buffer[] = [];
  private size = 0;
  private oversized: OversizedMessage | undefined;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** Reads a chunk; returns what the lines it completes were. */
  push(chunk: Buffer): ReadResult[] {
    const results: ReadResult[] = [];
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(NEWLINE, start);
      const piece = chunk.subarray(start, end === -1 ? chunk.length : end);
      this.take(piece);
      if (end === -1) break;
      const result = this.endLine();
      if (result) results.push(result);
      start = end + 1;
    }
    return results;
  }

  /** Drops a partial line. */
  clear(): void {
    this.pieces = [];
    this.size = 0;
    this.oversized = undefined;
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (!this.oversized && this.size + piece.length > this.maxBytes) {
      this.oversized = new OversizedMessage();
      for (const kept of this.pieces) this.oversized.add(kept);
      this.pieces = [];
      this.size = 0;
    }
    if (this.oversized) this.oversized.add(piece);
    else {
      // A copy: the chunk's memory is reused by the stream.
      this.pieces.push(Buffer.from(piece));
      this.size += piece.length;
    }
  }

  private endLine(): ReadResult | undefined {
    const oversized = this.oversized;
    const line = Buffer.concat(this.pieces, this.size).toString('utf8').replace(/\r$/, '');
    this.clear();
    if (oversized) return { type: 'oversized', message: oversized };
    if (line.trim() === '') return undefined;
    try {
      return { type: 'message', message: deserializeMessage(line) };
    } catch (error) {
      return { type: 'invalid', error: error instanceof Error ? error : new Error(String(error)) };
    }
  }
}
