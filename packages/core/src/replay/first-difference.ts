/** A path into a JSON value: object keys and array indexes. */
export type JsonPath = (string | number)[];

/** The value at `path` in `value`, or undefined. */
export function valueAt(value: unknown, path: JsonPath): unknown {
  let current = value;
  for (const step of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[step];
  }
  return current;
}

/** `context.messages[3].content` for `['context', 'messages', 3, 'content']`. */
function pathText(path: JsonPath): string {
  return path
    .map((step, index) => (typeof step === 'number' ? `[${step}]` : index === 0 ? step : `.${step}`))
    .join('');
}

/**
 * The first place two JSON values differ, depth first: object keys in `recorded`'s order then the
 * keys only `replayed` has, array items by index. Undefined when they are equal.
 */
export function firstDifference(
  recorded: unknown,
  replayed: unknown,
  path: JsonPath = [],
): { path: JsonPath; text: string; recorded: unknown; replayed: unknown } | undefined {
  if (recorded === replayed) return undefined;
  const bothArrays = Array.isArray(recorded) && Array.isArray(replayed);
  const bothObjects =
    !bothArrays &&
    recorded !== null &&
    replayed !== null &&
    typeof recorded === 'object' &&
    typeof replayed === 'object' &&
    !Array.isArray(recorded) &&
    !Array.isArray(replayed);
  if (bothArrays) {
    const length = Math.max(recorded.length, replayed.length);
    for (let index = 0; index < length; index++) {
      const found = firstDifference(recorded[index], replayed[index], [...path, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (bothObjects) {
    const a = recorded as Record<string, unknown>;
    const b = replayed as Record<string, unknown>;
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = firstDifference(a[key], b[key], [...path, key]);
      if (found) return found;
    }
    return undefined;
  }
  return { path, text: pathText(path) || '(the whole value)', recorded, replayed };
}
