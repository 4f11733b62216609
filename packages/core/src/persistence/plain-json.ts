/** Bounds on a value made plain JSON by {@link toPlainJson}. */
export interface PlainJsonBounds {
  /** Deepest nesting of objects and arrays. */
  maxDepth: number;
  /** Most characters of strings and keys, summed (every value counts at least one). */
  maxChars: number;
}

/** A value made plain JSON, or why it cannot be: `where` is its path (`input.a[2]`), `reason` what is wrong. */
export type PlainJson =
  | { ok: true; value: unknown }
  | { ok: false; kind: 'type' | 'bounds' | 'unreadable'; where: string; reason: string };

interface Frame {
  value: unknown;
  path: string;
  depth: number;
  /** The objects above this one (to tell a cycle from a value shared twice). */
  ancestors: readonly object[];
  /** Where the copy goes. */
  set: (copy: unknown) => void;
}

function describeType(value: unknown): string | undefined {
  switch (typeof value) {
    case 'bigint':
      return 'a BigInt';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default:
      return undefined;
  }
}

const KEY = /^[A-Za-z_$][\w$]*$/;

function child(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return KEY.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * Copies `value` into plain JSON data (objects, arrays, strings, finite numbers, booleans, null),
 * the way `JSON.stringify` then `JSON.parse` would read it (`toJSON` is called, `undefined`
 * properties are dropped, non-finite numbers become null), or says why it cannot: a BigInt, a
 * function or a symbol, a cycle, a value past `bounds`, or a getter, proxy trap or `toJSON` that
 * throws. `name` starts each path (`input`, `result`). Walks without recursion, reads each
 * property once, and never throws: whatever a model adapter or a tool hands over can be checked
 * here before it is journaled.
 */
export function toPlainJson(value: unknown, name: string, bounds: PlainJsonBounds): PlainJson {
  let result: unknown;
  const stack: Frame[] = [
    {
      value,
      path: name,
      depth: 0,
      ancestors: [],
      set: (copy) => {
        result = copy;
      },
    },
  ];
  let chars = 0;
  let path = name;
  try {
    while (stack.length > 0) {
      const frame = stack.pop()!;
      path = frame.path;
      let current = frame.value;
      if (current !== null && (typeof current === 'object' || typeof current === 'function')) {
        const toJson = (current as { toJSON?: unknown }).toJSON;
        if (typeof toJson === 'function') current = toJson.call(current, '');
      }
      chars++;
      const wrong = describeType(current);
      if (wrong) return { ok: false, kind: 'type', where: path, reason: `${wrong} at ${path}` };
      if (typeof current === 'string') {
        chars += current.length;
        frame.set(current);
      } else if (typeof current === 'number') frame.set(Number.isFinite(current) ? current : null);
      else if (typeof current !== 'object' || current === null) frame.set(current);
      else {
        if (frame.ancestors.includes(current))
          return { ok: false, kind: 'type', where: path, reason: `a cycle at ${path}` };
        if (frame.depth >= bounds.maxDepth)
          return {
            ok: false,
            kind: 'bounds',
            where: path,
            reason: `it is nested more than ${bounds.maxDepth} levels deep (at ${path})`,
          };
        const ancestors = [...frame.ancestors, current];
        const depth = frame.depth + 1;
        const array = Array.isArray(current) ? (current as unknown[]) : undefined;
        const keys = array ? undefined : Object.keys(current);
        const length = array ? array.length : keys!.length;
        if (array && chars + length > bounds.maxChars) return tooLarge(bounds, path);
        const copy: unknown[] | Record<string, unknown> = array ? new Array(length).fill(null) : {};
        frame.set(copy);
        for (let index = length - 1; index >= 0; index--) {
          const key = keys ? keys[index]! : index;
          if (keys) chars += (key as string).length;
          path = child(frame.path, key);
          const item = (current as Record<string | number, unknown>)[key];
          // A hole or an undefined item is null in JSON; an undefined property is left out.
          if (item === undefined) continue;
          stack.push({
            value: item,
            path,
            depth,
            ancestors,
            // defineProperty: a key `__proto__` is data here, as in JSON.parse.
            set: keys
              ? (copied) => {
                  Object.defineProperty(copy, key, {
                    value: copied,
                    enumerable: true,
                    writable: true,
                    configurable: true,
                  });
                }
              : (copied) => {
                  (copy as unknown[])[index] = copied;
                },
          });
        }
      }
      if (chars > bounds.maxChars) return tooLarge(bounds, path);
    }
  } catch (error) {
    return {
      ok: false,
      kind: 'unreadable',
      where: path,
      reason: `${path} could not be read: ${describeThrown(error)}`,
    };
  }
  return { ok: true, value: result };
}

function tooLarge(bounds: PlainJsonBounds, path: string): PlainJson {
  return {
    ok: false,
    kind: 'bounds',
    where: path,
    reason: `it is larger than ${bounds.maxChars.toLocaleString('en-US')} characters`,
  };
}

/** Most characters of a thrown value's description (an error result is not a log). */
const MAX_THROWN_CHARS = 20_000;

/** `text` cut to MAX_THROWN_CHARS, copied so that it does not keep a huge original alive. */
function clip(text: string): string {
  return text.length <= MAX_THROWN_CHARS ? text : ` ${text.slice(0, MAX_THROWN_CHARS)}…`.slice(1);
}

/**
 * A short description of anything thrown: an error's message, a string, or a short JSON form.
 * Never throws, whatever the value (an object with no prototype, a getter or proxy trap that
 * throws, a BigInt).
 */
export function describeThrown(error: unknown): string {
  try {
    if (typeof error === 'string') return clip(error) || '(an empty string)';
    if (error === null || (typeof error !== 'object' && typeof error !== 'function')) return String(error);
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message) return clip(message);
    const json = JSON.stringify(error);
    if (json && json !== '{}') return clip(json);
  } catch {
    // Falls through: the value cannot be read.
  }
  try {
    return `a thrown ${Object.prototype.toString.call(error).slice(8, -1)} with no readable message`;
  } catch {
    return 'a thrown value that cannot be read';
  }
}
