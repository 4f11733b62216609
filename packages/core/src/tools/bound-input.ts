/** Bounds on a tool call's input, checked before it is journaled or validated. */
export interface InputBounds {
  /** Deepest nesting of objects and arrays. */
  maxDepth: number;
  /** Most characters of string content and keys, summed over the whole input. */
  maxChars: number;
}

/** Default bounds: far beyond any real tool input, far below what breaks a JSON encoder. */
export const DEFAULT_INPUT_BOUNDS: InputBounds = { maxDepth: 64, maxChars: 2_000_000 };

/**
 * Says why `value` exceeds `bounds`, or returns `undefined` when it fits. Walks the value without
 * recursion (a hostile input nested 100,000 deep must not overflow the stack here either) and
 * stops as soon as a bound is passed, so the cost is bounded by the bounds, not by the input.
 */
export function exceedsInputBounds(
  value: unknown,
  bounds: InputBounds = DEFAULT_INPUT_BOUNDS,
): string | undefined {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  let chars = 0;
  let visited = 0;
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    visited++;
    if (typeof current === 'string') chars += current.length;
    else if (current !== null && typeof current === 'object') {
      if (depth >= bounds.maxDepth) return `it is nested more than ${bounds.maxDepth} levels deep`;
      if (Array.isArray(current)) {
        for (const item of current) stack.push({ value: item, depth: depth + 1 });
      } else {
        for (const key of Object.keys(current)) {
          chars += key.length;
          stack.push({ value: (current as Record<string, unknown>)[key], depth: depth + 1 });
        }
      }
    }
    // Every value counts at least one character, so a huge array of numbers is bounded too.
    if (chars + visited > bounds.maxChars)
      return `it is larger than ${bounds.maxChars.toLocaleString('en-US')} characters`;
  }
  return undefined;
}
