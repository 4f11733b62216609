/**
 * Deepest nesting of objects and arrays in a document read from a store. Everything troupe writes
 * stays far below (a tool input is refused past 64 levels, a structured output past 256), and a
 * reader that recurses (a comparison, `structuredClone`, `JSON.stringify`) is safe well beyond.
 */
export const MAX_DOCUMENT_DEPTH = 512;

/**
 * Most characters of one document read from a store (strings and keys summed, every value counting
 * at least one): 256 MiB, far beyond a task's snapshot (each tool result and model text block is
 * cut at 1,000,000 characters).
 */
export const MAX_DOCUMENT_CHARS = 256 * 1024 * 1024;

/** Bounds of a document read from a store. */
export interface DocumentBounds {
  maxDepth: number;
  maxChars: number;
}

const DEFAULT_BOUNDS: DocumentBounds = { maxDepth: MAX_DOCUMENT_DEPTH, maxChars: MAX_DOCUMENT_CHARS };

/**
 * Says why a parsed document exceeds `bounds` (nested too deep, naming where; too large), or
 * returns `undefined` when it fits. Walks without recursion and stops at the first bound passed,
 * so a hostile record 100,000 levels deep costs at most `maxDepth` steps down.
 */
export function exceedsDocumentBounds(
  value: unknown,
  bounds: DocumentBounds = DEFAULT_BOUNDS,
): string | undefined {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value, depth: 0, path: '' }];
  let chars = 0;
  while (stack.length > 0) {
    const { value: current, depth, path } = stack.pop()!;
    chars++;
    if (typeof current === 'string') chars += current.length;
    else if (current !== null && typeof current === 'object') {
      if (depth >= bounds.maxDepth) {
        const where = path.length > 120 ? `${path.slice(0, 120)}…` : path;
        return `it is nested more than ${bounds.maxDepth.toLocaleString('en-US')} levels deep (at ${where})`;
      }
      if (Array.isArray(current)) {
        for (let index = current.length - 1; index >= 0; index--)
          stack.push({ value: current[index], depth: depth + 1, path: `${path}[${index}]` });
      } else {
        for (const key of Object.keys(current)) {
          chars += key.length;
          stack.push({
            value: (current as Record<string, unknown>)[key],
            depth: depth + 1,
            path: path ? `${path}.${key}` : key,
          });
        }
      }
    }
    if (chars > bounds.maxChars) return tooLarge(bounds.maxChars);
  }
  return undefined;
}

/** Why a document of `chars` characters is refused, or undefined when it fits. */
export function exceedsDocumentSize(
  chars: number,
  maxChars: number = MAX_DOCUMENT_CHARS,
): string | undefined {
  return chars > maxChars ? tooLarge(maxChars) : undefined;
}

function tooLarge(maxChars: number): string {
  return `it is larger than ${maxChars.toLocaleString('en-US')} characters`;
}
