/** The `cache_control` lifetimes of a request body, in the order the API reads them: tools → system → messages. */
function lifetimes(body: Record<string, any>): ('5m' | '1h')[] {
  const found: ('5m' | '1h')[] = [];
  const add = (block: unknown) => {
    const control = (block as { cache_control?: { ttl?: unknown } } | null)?.cache_control;
    if (typeof control === 'object' && control !== null) found.push(control.ttl === '1h' ? '1h' : '5m');
  };
  for (const tool of Array.isArray(body.tools) ? body.tools : []) add(tool);
  for (const block of Array.isArray(body.system) ? body.system : []) add(block);
  for (const message of Array.isArray(body.messages) ? body.messages : [])
    for (const block of Array.isArray(message?.content) ? message.content : []) add(block);
  return found;
}

/**
 * The API's rule on mixed lifetimes: a 1-hour breakpoint must not come after a 5-minute one
 * (tools, then system, then messages). Returns the issue, or undefined.
 */
export function cacheTtlOrderIssue(body: Record<string, any>): string | undefined {
  const found = lifetimes(body);
  const firstShort = found.indexOf('5m');
  return firstShort >= 0 && found.indexOf('1h', firstShort) > firstShort
    ? "A cache_control block with ttl='1h' must not come after a cache_control block with ttl='5m'. Blocks are processed in this order: `tools`, `system`, `messages`."
    : undefined;
}
