import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { formatBytes, OversizedMessage, tooLargeAnswer } from './message-limit.js';

/** How far past the limit a JSON body is read to tell its size, as a multiple of the limit. */
const COUNT_UP_TO = 16;
/** How much of an error page (a 4xx or 5xx response) is kept for the error message. */
const ERROR_PAGE_BYTES = 4_096;
const NEWLINE = 0x0a;
const encoder = new TextEncoder();

type Id = string | number;

/** The ids of the JSON-RPC requests in a POST body (a message or a batch). */
function requestIdsOf(body: unknown): Id[] {
  if (typeof body !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(body);
    return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((message: unknown) => {
      const { method, id } = (message ?? {}) as { method?: unknown; id?: unknown };
      return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? [id] : [];
    });
  } catch {
    return [];
  }
}

/** The headers of `response` for a body troupe rebuilt (no length or encoding of the original). */
function headersOf(response: Response): Headers {
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  return headers;
}

/** Reads on to tell a body's size without keeping it: its declared length, or up to a point. */
async function sizeOf(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  read: number,
  declared: number,
  maxBytes: number,
): Promise<number> {
  let bytes = read;
  if (declared > bytes) bytes = declared;
  else
    while (bytes <= maxBytes * COUNT_UP_TO) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
    }
  await reader.cancel().catch(() => {});
  return bytes;
}

/** An error page cut to its first {@link ERROR_PAGE_BYTES} bytes, saying how large it was. */
async function limitErrorPage(response: Response, maxBytes: number): Promise<Response> {
  const reader = response.body!.getReader();
  const pieces: Uint8Array[] = [];
  let bytes = 0;
  while (bytes <= ERROR_PAGE_BYTES) {
    const { done, value } = await reader.read();
    if (done)
      return new Response(join(pieces, bytes), { status: response.status, headers: headersOf(response) });
    pieces.push(value);
    bytes += value.length;
  }
  const total = await sizeOf(reader, bytes, Number(response.headers.get('content-length')), maxBytes);
  const start = new TextDecoder().decode(join(pieces, bytes).subarray(0, ERROR_PAGE_BYTES));
  return new Response(`${start}… (${formatBytes(total)} in all)`, {
    status: response.status,
    statusText: response.statusText,
    headers: headersOf(response),
  });
}

function join(pieces: Uint8Array[], bytes: number): Uint8Array {
  const joined = new Uint8Array(bytes);
  let at = 0;
  for (const piece of pieces) {
    joined.set(piece, at);
    at += piece.length;
  }
  return joined;
}

/** A JSON body, or for one over the limit the error answers of the requests it answered. */
async function limitJson(response: Response, requests: Id[], maxBytes: number): Promise<Response> {
  const reader = response.body!.getReader();
  const pieces: Uint8Array[] = [];
  let bytes = 0;
  const declared = Number(response.headers.get('content-length'));
  let complete = !(declared > maxBytes);
  if (complete) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      if (bytes > maxBytes) {
        complete = false;
        break;
      }
      pieces.push(value);
    }
  }
  if (complete)
    return new Response(join(pieces, bytes), { status: response.status, headers: headersOf(response) });
  pieces.length = 0;
  // Over the limit: tell its size and answer for it.
  bytes = await sizeOf(reader, bytes, declared, maxBytes);
  const answers = requests.map((id) => tooLargeAnswer(id, bytes, maxBytes));
  const headers = headersOf(response);
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify(answers.length === 1 ? answers[0] : answers), {
    status: response.status,
    headers,
  });
}

/**
 * An SSE body in which a line over the limit (a `data:` line holding one message) is replaced by
 * the error answer for the request it answered, or dropped when it answered none troupe can tell
 * (a notification, a request of the server's). An event whose data lines add up past the limit
 * loses the lines past it, so no event held in memory grows beyond it.
 */
function limitEvents(response: Response, requests: Id[], maxBytes: number): Response {
  let line: Uint8Array[] = [];
  let lineBytes = 0;
  let eventBytes = 0;
  let oversized: OversizedMessage | undefined;
  const take = (piece: Uint8Array) => {
    if (!oversized && lineBytes + piece.length > maxBytes) {
      oversized = new OversizedMessage();
      for (const kept of line) oversized.add(kept);
      line = [];
      lineBytes = 0;
    }
    if (oversized) oversized.add(piece);
    else {
      line.push(piece.slice());
      lineBytes += piece.length;
    }
  };
  const endLine = (controller: TransformStreamDefaultController<Uint8Array>) => {
    const message = oversized;
    const kept = line;
    const size = lineBytes;
    oversized = undefined;
    line = [];
    lineBytes = 0;
    if (message) {
      const id = message.isFromServer()
        ? undefined
        : (message.id() ?? (requests.length === 1 ? requests[0] : undefined));
      if (id !== undefined)
        controller.enqueue(
          encoder.encode(`data: ${JSON.stringify(tooLargeAnswer(id, message.bytes, maxBytes))}\n`),
        );
      return;
    }
    const blank = size === 1 || (size === 2 && kept[0]?.[0] === 0x0d);
    if (blank)
      eventBytes = 0; // a blank line ends the event
    else if (eventBytes + size > maxBytes) return;
    else eventBytes += size;
    for (const piece of kept) controller.enqueue(piece);
  };
  const limiter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      let start = 0;
      while (start < chunk.length) {
        const end = chunk.indexOf(NEWLINE, start);
        take(chunk.subarray(start, end === -1 ? chunk.length : end + 1));
        if (end === -1) break;
        endLine(controller);
        start = end + 1;
      }
    },
    flush(controller) {
      if (lineBytes > 0 || oversized) endLine(controller);
    },
  });
  return new Response(response.body!.pipeThrough(limiter), {
    status: response.status,
    headers: headersOf(response),
  });
}

/**
 * Wraps `fetch` for the Streamable HTTP transport so that no message from the server over
 * `maxBytes` is held in memory or handed on: a JSON answer over the limit becomes the error
 * answer `tooLargeAnswer` for each request of the POST, and over SSE each message is checked on
 * its own (see `limitEvents`). An error page (4xx, 5xx) is cut to its first 4 KB, which the SDK
 * puts in its error. Other responses pass as they are.
 */
export function fetchWithMessageLimit(
  maxBytes: number,
  base: FetchLike = (url, init) => fetch(url, init),
): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body) return response;
    if (response.status >= 400) return limitErrorPage(response, maxBytes);
    if (!response.ok) return response; // a redirect, left to the SDK as it came
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const requests = init?.method === 'POST' ? requestIdsOf(init.body) : [];
    if (type === 'application/json') return limitJson(response, requests, maxBytes);
    if (type === 'text/event-stream') return limitEvents(response, requests, maxBytes);
    return response;
  };
}
