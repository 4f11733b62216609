/** Splits a JSON Pointer (`#/a/0/b~1c`, or without `#`) into unescaped segments. */
export function pointerSegments(pointer: string): string[] {
  const body = pointer.startsWith('#') ? pointer.slice(1) : pointer;
  if (body === '' || body === '/') return [];
  return body
    .slice(1)
    .split('/')
    .map((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // Not percent-encoded; keep as is.
      }
      return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

/** The value a JSON Pointer names in `root`, or `undefined` (with `found: false`) when absent. */
export function resolvePointer(root: unknown, pointer: string): { found: boolean; value: unknown } {
  let current: unknown = root;
  for (const segment of pointerSegments(pointer)) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) {
      return { found: false, value: undefined };
    }
    current = (current as Record<string, unknown>)[segment];
  }
  return { found: true, value: current };
}

/** A pointer as a path people read: `#/locations/0/path` → `locations[0].path`, `#` → `(root)`. */
export function readablePath(pointer: string): string {
  let out = '';
  for (const segment of pointerSegments(pointer)) {
    if (/^\d+$/.test(segment)) out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out === '' ? '(root)' : out;
}
