import type { ServerResponse } from 'node:http';
import { ERROR_STATUS, errorBody, errorTypeOf } from './api-errors.js';
import type { ApiMessage } from './message.js';
import { errorEvent, formatEvent, messageEvents, type StreamEvent } from './sse.js';
import type { FakeFault, FakeReply, RecordedRequest } from './types.js';

/** One request/response pair being answered. */
export interface Exchange {
  response: ServerResponse;
  record: RecordedRequest;
  requestId: string;
  chunkSize: number;
  /** Set when the fake cut the connection on purpose. */
  dropped: boolean;
}

function commonHeaders(exchange: Exchange): Record<string, string> {
  return {
    'request-id': exchange.requestId,
    'anthropic-organization-id': 'org_fake',
    via: '1.1 fake-anthropic',
  };
}

function whenClosed(response: ServerResponse): Promise<void> {
  if (response.destroyed) return Promise.resolve();
  return new Promise((resolve) => response.once('close', () => resolve()));
}

function pause(ms: number, response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void whenClosed(response).then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Sends an HTTP error with the API's error body. */
export function sendError(
  exchange: Exchange,
  status: number,
  type: string,
  message: string,
  action: string,
  headers: Record<string, string> = {},
): void {
  exchange.record.status = status;
  exchange.record.action = action;
  exchange.response.writeHead(status, {
    ...commonHeaders(exchange),
    'content-type': 'application/json',
    'x-should-retry': String(status === 408 || status === 409 || status === 429 || status >= 500),
    ...headers,
  });
  exchange.response.end(JSON.stringify(errorBody(type, message, exchange.requestId)));
}

function startStream(exchange: Exchange): void {
  exchange.record.status = 200;
  exchange.response.writeHead(200, {
    ...commonHeaders(exchange),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
}

async function writeEvents(
  exchange: Exchange,
  events: StreamEvent[],
  pacing: { delayMs?: number; gate?: Promise<void>; pauseAfterEvents?: number } = {},
): Promise<void> {
  const { response } = exchange;
  for (const [i, event] of events.entries()) {
    if (response.destroyed) return;
    if (pacing.gate && i === (pacing.pauseAfterEvents ?? 1))
      await Promise.race([pacing.gate, whenClosed(response)]);
    else if (pacing.delayMs && i > 0) await pause(pacing.delayMs, response);
    if (response.destroyed) return;
    response.write(formatEvent(event));
  }
}

/** Answers with a message: JSON, or the full event stream when the request asked to stream. */
export async function sendReply(exchange: Exchange, reply: FakeReply, message: ApiMessage): Promise<void> {
  const { response, record } = exchange;
  record.action = 'reply';
  if (!record.stream) {
    if (reply.gate) await Promise.race([reply.gate, whenClosed(response)]);
    if (reply.delayMs) await pause(reply.delayMs, response);
    if (response.destroyed) return;
    record.status = 200;
    response.writeHead(200, { ...commonHeaders(exchange), 'content-type': 'application/json' });
    response.end(JSON.stringify(message));
    return;
  }
  startStream(exchange);
  const pacing: { delayMs?: number; gate?: Promise<void>; pauseAfterEvents?: number } = {};
  if (reply.delayMs !== undefined) pacing.delayMs = reply.delayMs;
  if (reply.gate !== undefined) pacing.gate = reply.gate;
  if (reply.pauseAfterEvents !== undefined) pacing.pauseAfterEvents = reply.pauseAfterEvents;
  await writeEvents(exchange, messageEvents(message, exchange.chunkSize), pacing);
  if (!response.destroyed) response.end();
}

function drop(exchange: Exchange): void {
  exchange.dropped = true;
  exchange.response.socket?.destroy();
}

/** Carries out an injected fault; `partial` is the message whose first events precede a mid-stream fault. */
export async function sendFault(exchange: Exchange, fault: FakeFault, partial: ApiMessage): Promise<void> {
  const { record, response } = exchange;
  const events = messageEvents(partial, exchange.chunkSize);
  switch (fault.fault) {
    case 'rate_limited': {
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
      const message =
        fault.message ?? 'This request would exceed the rate limit for your organization (fake).';
      return sendError(exchange, 429, 'rate_limit_error', message, 'rate_limited', headers);
    }
    case 'overloaded': {
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      return sendError(
        exchange,
        529,
        'overloaded_error',
        fault.message ?? 'Overloaded',
        'overloaded',
        headers,
      );
    }
    case 'server_error': {
      const status = fault.status ?? 500;
      return sendError(
        exchange,
        status,
        errorTypeOf(status),
        fault.message ?? 'Internal server error',
        'server_error',
      );
    }
    case 'http_error':
      return sendError(exchange, fault.status, fault.errorType, fault.message, 'http_error', fault.headers);
    case 'drop': {
      record.action = 'drop';
      const after = fault.afterEvents ?? 0;
      if (!record.stream || after === 0) return drop(exchange);
      startStream(exchange);
      await writeEvents(exchange, events.slice(0, after));
      if (!response.destroyed) response.write('', () => drop(exchange));
      return;
    }
    case 'stream_error': {
      const type = fault.errorType ?? 'overloaded_error';
      const message = fault.message ?? (type === 'overloaded_error' ? 'Overloaded' : 'Internal server error');
      if (!record.stream)
        return sendError(exchange, ERROR_STATUS[type] ?? 500, type, message, 'stream_error');
      record.action = 'stream_error';
      startStream(exchange);
      await writeEvents(exchange, [...events.slice(0, fault.afterEvents ?? 1), errorEvent(type, message)]);
      if (!response.destroyed) response.end();
      return;
    }
    case 'hang':
      record.action = 'hang';
      if (record.stream) {
        startStream(exchange);
        await writeEvents(exchange, events.slice(0, fault.afterEvents ?? 1));
      }
      await whenClosed(response);
      return;
  }
}
