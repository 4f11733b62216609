/** A content block the fake returns, in the Messages API's response shape. */
export type FakeContentBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature?: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id?: string; name: string; input: Record<string, unknown> };

/** Token counts of a scripted reply. Omitted counts are estimated (about 4 characters a token). */
export interface FakeUsage {
  input?: number;
  output?: number;
  /** Forces `cache_read_input_tokens`; without it the fake simulates the prompt cache. */
  cacheRead?: number;
  /** Forces `cache_creation_input_tokens`; without it the fake simulates the prompt cache. */
  cacheWrite?: number;
  /** Of the forced cache writes, how many went to a 1-hour entry (the rest are 5-minute). Default 0. */
  cacheWrite1h?: number;
}

/** The `usage` of a Messages API response, as the fake sends it (and as the real API does). */
export interface ApiUsage {
  /** Input tokens neither read from nor written to the cache. */
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  /** The cache writes by lifetime (they add up to `cache_creation_input_tokens`). */
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  service_tier: 'standard';
}

/** Why a scripted reply stopped. */
export type FakeStopReason =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  | 'stop_sequence'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded';

/** A successful answer: content blocks, usage and optional model id and stop reason. */
export interface FakeReply {
  content: FakeContentBlock[];
  usage?: FakeUsage;
  /** The model id reported back; defaults to the requested one. */
  model?: string;
  /** Defaults to `tool_use` when the content calls a tool, else `end_turn`. */
  stopReason?: FakeStopReason;
  /** Real milliseconds to wait between stream events (a slow stream). Default 0. */
  delayMs?: number;
  /** Streaming only: waits for this promise after `pauseAfterEvents` events, then goes on. */
  gate?: Promise<void>;
  /** How many events are sent before waiting on `gate`. Default 1 (after `message_start`). */
  pauseAfterEvents?: number;
}

/** An injected failure. */
export type FakeFault =
  /** HTTP 429 `rate_limit_error`, with `retry-after` (seconds) and/or `retry-after-ms`. */
  | { fault: 'rate_limited'; retryAfter?: number; retryAfterMs?: number; message?: string }
  /** HTTP 529 `overloaded_error`. */
  | { fault: 'overloaded'; retryAfter?: number; message?: string }
  /** HTTP 5xx `api_error` (500 unless `status` says otherwise). */
  | { fault: 'server_error'; status?: number; message?: string }
  /** Any HTTP error with the API's error shape, e.g. 400 `invalid_request_error` or 403 `permission_error`. */
  | {
      fault: 'http_error';
      status: number;
      errorType: string;
      message: string;
      headers?: Record<string, string>;
    }
  /** The socket is destroyed after `afterEvents` stream events (0: before any response byte). */
  | { fault: 'drop'; afterEvents?: number }
  /** An `event: error` in the stream after `afterEvents` events (default 1); a non-streaming call gets the HTTP error. */
  | { fault: 'stream_error'; afterEvents?: number; errorType?: string; message?: string }
  /** The response stops after `afterEvents` events (default 1) and hangs until the client goes away. */
  | { fault: 'hang'; afterEvents?: number };

/** One scripted step: a reply or a fault. */
export type FakeStep = FakeReply | FakeFault;

/** Answers a request with a step; may be async. Used when the queue is empty. */
export type FakeHandler = (request: RecordedRequest) => FakeStep | Promise<FakeStep>;

/** How a request's response ended. */
export type RequestOutcome = 'completed' | 'client-closed' | 'dropped';

/** A request the fake received, as the test sees it. Credentials are redacted. */
export interface RecordedRequest {
  /** 0-based position among all requests the server received. */
  index: number;
  method: string;
  path: string;
  /** Lower-cased headers; `x-api-key` and `authorization` are replaced by `[redacted]`. */
  headers: Record<string, string>;
  /** Which credential the client sent. */
  auth: 'x-api-key' | 'bearer' | 'none';
  /** The parsed JSON body (undefined when it was not JSON). */
  body: any;
  stream: boolean;
  /** Why the request would be rejected by the real API; empty when it is valid. */
  validationErrors: string[];
  /** The HTTP status sent (undefined while pending or when the connection was dropped first). */
  status?: number;
  /** What the fake did: `reply`, a fault name, `invalid`, `unauthorized`, `not_found` or `unscripted`. */
  action?: string;
  /** Settles when the exchange is over: how it ended. */
  finished: Promise<RequestOutcome>;
  /** The usage the fake answered with (what the request read from and wrote to the cache). */
  usage?: ApiUsage;
}

/** Options of `startFakeAnthropic`. */
export interface FakeAnthropicOptions {
  /** When set, requests must carry it as `x-api-key` or `authorization: Bearer`, or get a 401. */
  apiKey?: string;
  /**
   * Answer pages as the API does: CORS headers for this origin (`*` for any), preflights, and a 401
   * for a cross-origin request without `anthropic-dangerous-direct-browser-access: true`. Off by default.
   */
  cors?: string;
  /** When true, `close()` rejects if any request was invalid or unscripted. Default false. */
  strict?: boolean;
  /** Port to listen on; 0 (default) picks a free one. The host is always 127.0.0.1. */
  port?: number;
  /** Steps answered in order, before `handler` is asked. */
  script?: FakeStep[];
  /** Answers requests once the queue is empty. */
  handler?: FakeHandler;
  /** Characters per text / tool-input delta. Default 16. */
  chunkSize?: number;
  /** Simulate prompt caching from `cache_control` breakpoints. Default true. */
  simulateCache?: boolean;
  /**
   * Prefixes shorter than this many (estimated) tokens are not cached. Default: the documented
   * minimum of the request's model (1,024 for most Claude models; none for a model id that is not Claude's).
   */
  minCacheTokens?: number;
  /** The clock cache entries expire by (5 minutes, or 1 hour with `ttl: '1h'`), in ms. Default `Date.now`. */
  now?: () => number;
}

/** A running fake server. */
export interface FakeAnthropicServer {
  /** Base URL for the SDK, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Every validation failure, prefixed with the request index. */
  readonly validationErrors: string[];
  /** Adds steps to the end of the queue. */
  enqueue(...steps: FakeStep[]): void;
  /** Sets (or clears) the handler asked when the queue is empty. */
  setHandler(handler: FakeHandler | undefined): void;
  /** Steps still queued. */
  readonly pending: number;
  /** Resolves once `count` requests have arrived. */
  waitForRequests(count: number): Promise<RecordedRequest[]>;
  /** Throws an Error listing every invalid or unscripted request, if any. */
  assertValid(): void;
  /** Stops the server, cutting open connections; with `strict`, rejects when `assertValid` would throw. */
  close(): Promise<void>;
}
