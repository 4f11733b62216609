import { defineTool, type Tool } from '@troupe/core';
import * as v from 'valibot';
import { MAX_OUTPUT_CHARS, truncateHead } from './text.js';
import { toolFailure } from './tool-failure.js';

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

/** How many redirects one call follows before it gives up. */
const MAX_REDIRECTS = 5;

/** Headers a redirect to another origin must not carry (as the Fetch standard drops them). */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

/** Headers that describe a body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-location',
]);

interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal;
}

/**
 * Sends the request with `redirect: 'manual'`, so nothing goes to a redirect's target before it
 * is checked. Where the Location is readable (Node, Deno, a custom fetch) the redirect is
 * followed here, each hop checked against `allowed`, the method rewritten as a browser would
 * (303, and 301/302 after a POST, become a GET without a body) and credentials dropped when the
 * origin changes. In a browser a redirect is an opaque response whose target cannot be read: it
 * is refused.
 */
async function followRedirects(
  request: typeof globalThis.fetch,
  allowed: ReadonlySet<string>,
  first: Hop,
): Promise<Response> {
  let hop = first;
  for (let redirects = 0; ; redirects++) {
    const response = await request(hop.url, {
      method: hop.method,
      headers: hop.headers,
      ...(hop.body ? { body: hop.body } : {}),
      signal: hop.signal,
      redirect: 'manual',
    });
    if (response.type === 'opaqueredirect') {
      throw toolFailure(
        'fetch',
        `${hop.url.href} answered with a redirect, which was not followed: in a browser a redirect's target ` +
          `cannot be read, so it cannot be checked against the allowed origins. Request the final URL directly.`,
        { url: hop.url.href },
      );
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || response.status === 304 || location === null) {
      return response;
    }
    await response.body?.cancel();
    let next: URL;
    try {
      next = new URL(location, hop.url);
    } catch {
      throw toolFailure(
        'fetch',
        `${hop.url.href} answered with a redirect to "${location}", which is not a URL.`,
        {
          url: hop.url.href,
        },
      );
    }
    if (!allowed.has(next.origin)) {
      throw toolFailure(
        'fetch',
        `${hop.url.href} answered with a redirect (HTTP ${response.status}) to ${next.href}, an origin that is not ` +
          `allowed; the redirect was not followed. Allowed: ${[...allowed].join(', ') || 'none'}.`,
        { url: hop.url.href, location: next.href },
      );
    }
    if (redirects >= MAX_REDIRECTS) {
      throw toolFailure(
        'fetch',
        `${first.url.href} answered with more than ${MAX_REDIRECTS} redirects; stopped.`,
        {
          url: first.url.href,
        },
      );
    }
    const toGet =
      (response.status === 303 && hop.method !== 'HEAD') ||
      ((response.status === 301 || response.status === 302) && hop.method === 'POST');
    const crossOrigin = next.origin !== hop.url.origin;
    const headers = Object.fromEntries(
      Object.entries(hop.headers).filter(([name]) => {
        const lower = name.toLowerCase();
        return !(crossOrigin && CREDENTIAL_HEADERS.has(lower)) && !(toGet && BODY_HEADERS.has(lower));
      }),
    );
    hop = {
      url: next,
      method: toGet ? 'GET' : hop.method,
      headers,
      body: toGet ? undefined : hop.body,
      signal: hop.signal,
    };
  }
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
