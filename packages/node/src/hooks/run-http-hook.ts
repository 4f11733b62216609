/** How one HTTP hook's request ended. */
export interface HttpHookRun {
  /** The response status; undefined when no response came (timed out, refused, aborted). */
  status?: number;
  /** The response body, capped. */
  body: string;
  timedOut: boolean;
  /** Why no response came, if none did. */
  failed?: string;
}

/** What {@link runHttpHook} sends. */
export interface HttpHookRequest {
  url: string;
  headers?: Readonly<Record<string, string>>;
  /** Variables `$NAME` / `${NAME}` in header values may name; any other is replaced by nothing. */
  allowedEnvVars?: readonly string[];
  env: NodeJS.ProcessEnv;
  /** JSON sent as the body. */
  input: string;
  timeoutMs: number;
  /** The most characters of the response body read; the rest is cut with a note. */
  maxOutputChars: number;
  signal?: AbortSignal;
}

/** `value` with `$NAME` / `${NAME}` replaced by the allowed variables' values (others by nothing). */
export function interpolateHeader(value: string, allowed: readonly string[], env: NodeJS.ProcessEnv): string {
  return value.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (_match, braced, plain) => {
      const name = (braced ?? plain) as string;
      return allowed.includes(name) ? (env[name] ?? '') : '';
    },
  );
}

/**
 * POSTs a hook's input as JSON to its URL (no redirects followed), at most `timeoutMs`, and reads
 * at most `maxOutputChars` of the response body. Never rejects.
 */
export async function runHttpHook(request: HttpHookRequest): Promise<HttpHookRun> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  try {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    for (const [name, value] of Object.entries(request.headers ?? {}))
      headers[name] = interpolateHeader(value, request.allowedEnvVars ?? [], request.env);
    const response = await fetch(request.url, {
      method: 'POST',
      headers,
      body: request.input,
      redirect: 'manual',
      signal,
    });
    const body = await readCapped(response, request.maxOutputChars);
    return { status: response.status, body, timedOut: false };
  } catch (error) {
    const timedOut = timeout.aborted;
    return {
      body: '',
      timedOut,
      failed: timedOut ? 'timed out' : error instanceof Error ? error.message : String(error),
    };
  }
}

async function readCapped(response: Response, cap: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let dropped = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const chunk = decoder.decode(value, { stream: true });
    const room = cap - text.length;
    if (room > 0) text += chunk.slice(0, room);
    if (chunk.length > room) dropped += chunk.length - Math.max(0, room);
    if (dropped > cap) {
      await reader.cancel().catch(() => {});
      break;
    }
  }
  return dropped ? `${text}\n[hook output cut: ${dropped}+ more characters]` : text;
}
