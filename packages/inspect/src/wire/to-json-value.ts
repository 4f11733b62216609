import { combinedName } from './guard-name.js';
import type { Redactor } from './redact.js';
import { REDACTED } from './redact.js';

/** Deepest nesting kept; deeper values become `"[…]"`. */
const MAX_DEPTH = 24;

/**
 * A JSON-safe, redacted copy of a context, event or output, as the inspector records it. Actor
 * references become `{ xstate$$type: 1, id }` (XState's own persisted form), actor logic becomes
 * `{ logic: id }`, functions `{ type: name }` (a combined guard `{ type: 'not(isCurrentTurn)' }`), Maps objects, Sets arrays, errors `{ name, message }`.
 * A class instance with a numeric `size` (a queue, a cache) is summarised as `{ size }`.
 * Cycles become `"[circular]"`. Secrets are replaced by `[redacted]` (see {@link Redactor}).
 */
export function toJsonValue(value: unknown, redactor: Redactor): unknown {
  return convert(value, redactor, 0, new Set());
}

function convert(value: unknown, redactor: Redactor, depth: number, seen: Set<object>): unknown {
  switch (typeof value) {
    case 'string':
      return redactor.redactString(value);
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'function': {
      // XState's built-in actions carry their type (`xstate.assign`); combined guards are named
      // from the guards they combine. Neither depends on a function's (minifiable) name.
      const type = (value as { type?: unknown }).type;
      if (typeof type === 'string') return { type };
      return { type: combinedName(value) ?? (value.name || 'anonymous') };
    }
    case 'undefined':
    case 'symbol':
      return undefined;
  }
  if (value === null) return null;
  const object = value as Record<string, unknown>;
  if (depth >= MAX_DEPTH) return '[…]';
  if (seen.has(object)) return '[circular]';
  if (typeof object.sessionId === 'string' && typeof object.send === 'function')
    return { xstate$$type: 1, id: String(object.id ?? object.sessionId) };
  if (typeof object.transition === 'function' && typeof object.getInitialSnapshot === 'function') {
    const id = (object.config as { id?: unknown } | undefined)?.id ?? (object as { id?: unknown }).id;
    return { logic: typeof id === 'string' ? id : 'anonymous' };
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Error) return { name: value.name, message: redactor.redactString(value.message) };
  seen.add(object);
  try {
    if (Array.isArray(value)) return value.map((item) => convert(item, redactor, depth + 1, seen) ?? null);
    if (value instanceof Map) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of value) put(out, String(key), item, redactor, depth, seen);
      return out;
    }
    if (value instanceof Set)
      return [...value].map((item) => convert(item, redactor, depth + 1, seen) ?? null);
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null && typeof object.size === 'number')
      return { size: object.size };
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(object)) put(out, key, object[key], redactor, depth, seen);
    return out;
  } finally {
    seen.delete(object);
  }
}

function put(
  out: Record<string, unknown>,
  key: string,
  item: unknown,
  redactor: Redactor,
  depth: number,
  seen: Set<object>,
): void {
  if (redactor.isSecretKey(key)) {
    if (item !== undefined && item !== null && item !== '') out[key] = REDACTED;
    return;
  }
  const converted = convert(item, redactor, depth + 1, seen);
  if (converted !== undefined) out[key] = converted;
}
