import { toolFailure } from '@troupe/core/workspace';

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

/** One request of a chain of redirects. */
export interface Hop {
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
export async function followRedirects(
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
    // A custom fetch may follow redirects itself despite `manual`: then at least its answer from
    // an origin off the list is not handed to the model.
    if (response.redirected && response.url && !allowed.has(new URL(response.url).origin)) {
      await response.body?.cancel();
      throw toolFailure(
        'fetch',
        `${hop.url.href} was redirected to ${response.url}, an origin that is not allowed; its answer is not ` +
          `returned. The fetch given to createFetchTool followed the redirect although asked not to.`,
        { url: hop.url.href, location: response.url },
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
