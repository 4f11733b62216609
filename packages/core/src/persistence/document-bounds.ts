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

interface Frame {
  value: unknown;
  depth: number;
  /** The frame of the containing object, and this value's key in it (for the path, when needed). */
  parent: Frame | undefined;
  key: string | number;
}

/** The path of `frame` (`snapshot.context.messages[0]`), built only for a report. */
function pathOf(frame: Frame): string {
  const parts: string[] = [];
  for (let at: Frame | undefined = frame; at?.parent; at = at.parent)
    parts.push(typeof at.key === 'number' ? `[${at.key}]` : `.${at.key}`);
  const path = parts.reverse().join('').replace(/^\./, '');
  return path.length > 120 ? `${path.slice(0, 120)}…` : path;
}

/**
 * Says why a parsed document exceeds `bounds` (nested too deep, naming where; too large), or
 * returns `undefined` when it fits. Walks without recursion and stops at the first bound passed,
 * so a hostile record 100,000 levels deep costs at most `maxDepth` steps down.
 */
export function exceedsDocumentBounds(
  value: unknown,
  bounds: DocumentBounds = DEFAULT_BOUNDS,
): string | undefined {
  const stack: Frame[] = [{ value, depth: 0, parent: undefined, key: '' }];
  let chars = 0;
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const current = frame.value;
    chars++;
    if (typeof current === 'string') chars += current.length;
    else if (current !== null && typeof current === 'object') {
      const depth = frame.depth + 1;
      if (depth > bounds.maxDepth)
        return `it is nested more than ${bounds.maxDepth.toLocaleString('en-US')} levels deep (at ${pathOf(frame)})`;
      if (Array.isArray(current)) {
        // A store that clones rather than parses may hand over a sparse array of 2³² − 1 items.
        if (chars + current.length > bounds.maxChars) return tooLarge(bounds.maxChars);
        for (let index = current.length - 1; index >= 0; index--)
          stack.push({ value: current[index], depth, parent: frame, key: index });
      } else {
        for (const key of Object.keys(current)) {
          chars += key.length;
          stack.push({ value: (current as Record<string, unknown>)[key], depth, parent: frame, key });
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
