/**
 * Thrown by a file system's own search engine (`WorkspaceFileSystem.search`) when its syntax
 * refuses a pattern: `grep` then tries the JavaScript scan, and names this message when that
 * refuses it too.
 */
export class SearchPatternError extends Error {
  override name = 'SearchPatternError';
}

/** A search pattern that the JavaScript scan runs on blocks of lines. */
export interface PatternRunner {
  /**
   * Indices (0-based) of the lines of `text` (joined by `\n`) that the pattern matches. With
   * `pretest`, the block is first tested whole (multiline), which is only sound without look-around.
   * Rejects past the runner's time limit (with a `ToolError` for the model), or with the signal's
   * reason when it aborts.
   */
  matchLines(text: string, pretest: boolean): Promise<number[]>;
  /** Why the runner stopped (time limit, abort, a crash), once it has; every later call rejects with it. */
  readonly failure: unknown;
  /** Stops the runner. */
  close(): Promise<void>;
}

/**
 * Compiles a search pattern as a JavaScript regular expression (Unicode mode when the pattern
 * allows it). Throws a `SyntaxError` for an invalid pattern.
 */
export function compilePattern(pattern: string, ignoreCase: boolean, extraFlags = ''): RegExp {
  const flags = (ignoreCase ? 'i' : '') + extraFlags;
  try {
    return new RegExp(pattern, `${flags}u`);
  } catch {
    return new RegExp(pattern, flags);
  }
}

/**
 * A {@link PatternRunner} on the calling thread, without a time limit: for a file system that has
 * no worker to run patterns in (a browser page's OPFS workspace).
 */
export function startInlinePatternRunner(
  pattern: string,
  ignoreCase: boolean,
  signal: AbortSignal,
): PatternRunner {
  const whole = compilePattern(pattern, ignoreCase, 'm');
  const line = compilePattern(pattern, ignoreCase);
  let failure: unknown;
  return {
    get failure() {
      return failure;
    },
    async matchLines(text, pretest) {
      if (signal.aborted) failure ??= signal.reason;
      if (failure !== undefined) throw failure;
      const matches: number[] = [];
      if (pretest && !whole.test(text)) return matches;
      const lines = text.split('\n');
      for (let index = 0; index < lines.length; index++) if (line.test(lines[index]!)) matches.push(index);
      return matches;
    },
    async close() {},
  };
}
