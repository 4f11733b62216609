/** Bounds on a tool call's input, checked (with `toPlainJson`) before it is journaled or validated. */
export interface InputBounds {
  /** Deepest nesting of objects and arrays. */
  maxDepth: number;
  /** Most characters of string content and keys, summed over the whole input. */
  maxChars: number;
}

/** Default bounds: far beyond any real tool input, far below what breaks a JSON encoder. */
export const DEFAULT_INPUT_BOUNDS: InputBounds = { maxDepth: 64, maxChars: 2_000_000 };
