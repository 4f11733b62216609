import { defineTool, type Tool } from '@troupe/core';
import {
  DEFAULT_MAX_OUTPUT_CHARS as MAX_OUTPUT_CHARS,
  toolFailure,
  truncateHead,
} from '@troupe/core/workspace';
import * as v from 'valibot';
import { followRedirects } from './follow-redirects.js';

const fetchInput = v.object({
  url: v.pipe(v.string(), v.minLength(1), v.description('Absolute http(s) URL to request.')),
  method: v.optional(
    v.pipe(
      v.picklist(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']),
      v.description('HTTP method (default GET).'),
    ),
  ),
  headers: v.optional(v.pipe(v.record(v.string(), v.string()), v.description('Request headers.'))),
  body: v.optional(v.pipe(v.string(), v.description('Request body (text).'))),
});

/** Options of {@link createFetchTool}. */
export interface FetchToolOptions {
  /**
   * Origins the tool may reach, e.g. `['https://api.github.com']`. A request to any other origin
   * is refused before it is sent. Required: there is no "allow all".
   */
  allowedOrigins: readonly string[];
  /** The fetch to use (default `globalThis.fetch`). */
  fetch?: typeof globalThis.fetch;
}

/**
 * The `fetch` tool (access `execute`, so every call goes through the approval policy): one HTTP
 * request to an allowed origin; returns the status line and the response text, cut at 30,000
 * characters. A redirect is followed only where its target can be read and is itself allowed (at
 * every hop, at most 5); in a browser, where it cannot be read, a redirect is refused. Throws
 * `RangeError` when an allowed origin is not an http(s) origin.
 */
export function createFetchTool(options: FetchToolOptions): Tool<v.InferOutput<typeof fetchInput>> {
  const allowed = new Set(
    options.allowedOrigins.map((origin) => {
      const url = new URL(origin);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new RangeError(`fetch tool: allowed origin "${origin}" must be http or https.`);
      }
      return url.origin;
    }),
  );
  const request = options.fetch ?? globalThis.fetch.bind(globalThis);
  return defineTool({
    name: 'fetch',
    access: 'execute',
    description:
      `Sends one HTTP request and returns the status and the response body as text. Only these origins are ` +
      `allowed: ${[...allowed].join(', ') || '(none)'}.`,
    input: fetchInput,
    async execute({ url, method = 'GET', headers, body }, { signal }) {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        throw toolFailure('fetch', `"${url}" is not an absolute URL.`, { url });
      }
      if (!allowed.has(target.origin)) {
        throw toolFailure(
          'fetch',
          `The origin ${target.origin} is not allowed. Allowed: ${[...allowed].join(', ') || 'none'}.`,
          {
            url,
          },
        );
      }
      const response = await followRedirects(request, allowed, {
        url: target,
        method,
        headers: headers ?? {},
        body,
        signal,
      });
      const text = method === 'HEAD' ? '' : await response.text();
      const type = response.headers.get('content-type') ?? 'unknown type';
      return truncateHead(
        `HTTP ${response.status} ${response.statusText} (${type})\n\n${text}`,
        MAX_OUTPUT_CHARS,
        'Request a smaller resource.',
      );
    },
  });
}
