import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Default cap on one MCP message from a server, in bytes (10 MiB, the SDK's own stdio limit). */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * The JSON-RPC error code troupe answers in a server's place when its answer to a request was
 * over the message limit (in the implementation-defined range; the SDK uses -32000 and -32001).
 */
export const MESSAGE_TOO_LARGE_CODE = -32_090;

const KEEP = 1_024;

/** A size for people: `60 MB`, `812 KB`, `97 bytes` (1 MB = 1,048,576 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/**
 * What is kept of a message too large to keep whole: its size and its first and last kilobyte,
 * where the JSON-RPC `id` sits (first for most clients, last for the SDK's `{result, jsonrpc, id}`).
 * The message is a line of JSON, or an SSE `data:` line holding one.
 */
export class OversizedMessage {
  bytes = 0;
  private head: Uint8Array = new Uint8Array(0);
  private tail: Uint8Array = new Uint8Array(0);

  /** Adds the next piece of the message. */
  add(piece: Uint8Array): void {
    this.bytes += piece.length;
    if (this.head.length < KEEP) this.head = concat(this.head, piece.subarray(0, KEEP - this.head.length));
    const tail = concat(this.tail, piece.subarray(Math.max(0, piece.length - KEEP)));
    this.tail = tail.subarray(Math.max(0, tail.length - KEEP));
  }

  /** True when the message is a request or notification of the server's own: it names a method first. */
  isFromServer(): boolean {
    return /^\s*(?:data: ?)?\{(?:\s*"(?:jsonrpc|id)"\s*:\s*(?:"[^"]*"|-?\d+)\s*,)*\s*"method"\s*:/.test(
      this.text(this.head),
    );
  }

  /** The message's `id`, when its start or its end shows it; otherwise undefined. */
  id(): string | number | undefined {
    const first =
      /^\s*(?:data: ?)?\{(?:\s*"jsonrpc"\s*:\s*"2\.0"\s*,)?\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(
        this.text(this.head),
      );
    const last = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/.exec(this.text(this.tail));
    const found = first?.[1] ?? last?.[1];
    if (found === undefined) return undefined;
    try {
      const id: unknown = JSON.parse(found);
      return typeof id === 'number' || typeof id === 'string' ? id : undefined;
    } catch {
      return undefined;
    }
  }

  private text(bytes: Uint8Array): string {
    return new TextDecoder().decode(bytes);
  }
}

/** Data of the error answer troupe gives for a message over the limit. */
export interface MessageTooLargeData {
  troupe: 'message-too-large';
  bytes: number;
  limit: number;
}

/** The error answer troupe delivers, in the server's place, for an answer over the limit. */
export function tooLargeAnswer(id: string | number, bytes: number, limit: number): JSONRPCMessage {
  const data: MessageTooLargeData = { troupe: 'message-too-large', bytes, limit };
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: MESSAGE_TOO_LARGE_CODE,
      message: `the answer was a ${formatBytes(bytes)} message, over the ${formatBytes(limit)} limit; it was dropped`,
      data,
    },
  };
}

/** The sizes of a {@link tooLargeAnswer}, when `error` is one (an SDK `McpError`). */
export function messageTooLarge(error: unknown): MessageTooLargeData | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, data } = error as { code?: unknown; data?: Partial<MessageTooLargeData> | null };
  if (code !== MESSAGE_TOO_LARGE_CODE || typeof data !== 'object' || data === null) return undefined;
  if (data.troupe !== 'message-too-large' || typeof data.bytes !== 'number' || typeof data.limit !== 'number')
    return undefined;
  return { troupe: data.troupe, bytes: data.bytes, limit: data.limit };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b.slice();
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
