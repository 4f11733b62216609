import type { ModelError } from '@troupe/core';
import type { ModelTable } from './model-aliases.js';

/** Which prompt parts carry a `cache_control` breakpoint. */
export interface CacheOptions {
  /** The system prompt. Default true. */
  system?: boolean;
  /** The tool definitions (breakpoint on the last tool). Default true. */
  tools?: boolean;
  /** The conversation so far (breakpoint on the last block of the last message). Default true. */
  messages?: boolean;
}

/** Passed to `onRetry` before the adapter waits and tries again. */
export interface RetryEvent {
  /** The retry about to happen: 1 for the first retry. */
  retry: number;
  /** How long the adapter will wait first, in milliseconds. */
  delayMs: number;
  /** What failed (code, status, message); never contains the key. */
  error: ModelError;
}

/** Configuration of `createAnthropicModel`. Every field is optional. */
export interface AnthropicModelOptions {
  /** API key. Falls back to `ANTHROPIC_API_KEY`. Kept private: never logged, stored or put in errors. */
  apiKey?: string;
  /** OAuth / bearer token, used instead of a key. Falls back to `ANTHROPIC_AUTH_TOKEN`. */
  authToken?: string;
  /** API endpoint. Falls back to `ANTHROPIC_BASE_URL`, then `https://api.anthropic.com`. */
  baseURL?: string;
  /** Ids behind the aliases; see `resolveModelTable` for the defaults. */
  models?: Partial<ModelTable>;
  /** `max_tokens` used when a request's `maxTokens` is not a positive integer. Default 8192. */
  maxTokens?: number;
  /** Retries after the first try on 429, 529, 5xx and dropped connections. Default 4. */
  maxRetries?: number;
  /** First backoff delay in ms; doubles each retry. Default 500. */
  initialRetryDelayMs?: number;
  /** Cap of the computed backoff delay in ms. Default 8000. */
  maxRetryDelayMs?: number;
  /** A `retry-after` longer than this (ms) is not waited for: the call fails at once. Default 60000. */
  maxRetryAfterMs?: number;
  /** Per-attempt HTTP timeout in ms (the SDK's `timeout`). Default 600000. */
  timeoutMs?: number;
  /** Prompt-caching breakpoints; `false` turns caching off. Default: all on. */
  cache?: boolean | CacheOptions;
  /** Extended thinking: a token budget (at least 1024) enables it. Off by default. */
  thinking?: { budgetTokens: number };
  /** Called before each retry (for progress lines and logs). */
  onRetry?: (event: RetryEvent) => void;
  /** Waits between retries; must reject when `signal` aborts. Injected by tests. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Source of jitter in [0, 1). Default `Math.random`. */
  random?: () => number;
  /** The clock used to read HTTP-date `retry-after` values. Default `Date.now`. */
  now?: () => number;
  /** A `fetch` implementation for the SDK (proxies, tests). */
  fetch?: typeof fetch;
  /** Extra headers on every request (never put the key here). */
  defaultHeaders?: Record<string, string>;
  /** Environment to read the `ANTHROPIC_*` fallbacks from. Default `process.env` when it exists. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Allow use from a browser page (the SDK's `dangerouslyAllowBrowser`). Default false. */
  dangerouslyAllowBrowser?: boolean;
}
