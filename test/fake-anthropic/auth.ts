import type { IncomingHttpHeaders } from 'node:http';

const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'proxy-authorization']);

/** Headers as recorded for tests: lower-case names, single values, credentials replaced by `[redacted]`. */
export function recordHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const recorded: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    recorded[name] = SECRET_HEADERS.has(name)
      ? '[redacted]'
      : Array.isArray(value)
        ? value.join(', ')
        : value;
  }
  return recorded;
}

/**
 * Checks the credential against the configured key. Accepts `x-api-key: KEY` and
 * `authorization: Bearer KEY`. Returns the API's 401 message, or undefined when allowed
 * (always allowed when no key is configured).
 */
export function checkAuth(headers: IncomingHttpHeaders, apiKey: string | undefined): string | undefined {
  if (apiKey === undefined) return undefined;
  const header = headers['x-api-key'];
  const bearer = /^Bearer (.+)$/i.exec(headers.authorization ?? '')?.[1];
  const given = (Array.isArray(header) ? header[0] : header) || bearer;
  if (!given) return 'x-api-key header is required';
  return given === apiKey ? undefined : 'invalid x-api-key';
}
