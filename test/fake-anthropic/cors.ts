import type { IncomingMessage, ServerResponse } from 'node:http';

/** The header the SDK sends from a browser (`dangerouslyAllowBrowser`), without which the API refuses a page. */
export const BROWSER_ACCESS_HEADER = 'anthropic-dangerous-direct-browser-access';

/**
 * CORS as the Messages API does it, for pages calling the fake: every response allows `origin`
 * (`*` for any), a preflight `OPTIONS` is answered with the methods and headers asked for, and a
 * cross-origin request without {@link BROWSER_ACCESS_HEADER} is refused with the API's 401 message.
 * Returns `{ preflight: true }` when it answered a preflight, `{ refused }` with the API's message
 * for a page that did not opt in, or undefined to go on.
 */
export function applyCors(
  request: IncomingMessage,
  response: ServerResponse,
  origin: string,
): { preflight: true } | { refused: string } | undefined {
  const from = request.headers.origin;
  if (from === undefined) return undefined;
  response.setHeader('access-control-allow-origin', origin === '*' ? '*' : origin);
  response.setHeader('access-control-expose-headers', 'request-id, retry-after, x-should-retry');
  if (origin !== '*') response.setHeader('vary', 'origin');
  if (request.method === 'OPTIONS') {
    response.writeHead(204, {
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': request.headers['access-control-request-headers'] ?? '*',
      'access-control-max-age': '600',
    });
    response.end();
    return { preflight: true };
  }
  if (request.headers[BROWSER_ACCESS_HEADER] !== 'true') {
    return {
      refused: `CORS requests must set '${BROWSER_ACCESS_HEADER}' header`,
    };
  }
  return undefined;
}
