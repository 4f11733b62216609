import { toolFailure } from './tool-failure.js';

/**
 * Checks a glob pattern a tool will expand (glob's `pattern`, grep's `glob`, with or without a
 * leading `!`): it must be relative and must not climb out with `..`, also not through a brace
 * expansion (`..{/x,}`, `{..,a}/x`). Returns the pattern; throws a `ToolError` naming it and `root`.
 */
export function confinePattern(pattern: string, toolName: string, parameter: string, root: string): string {
  const body = pattern.startsWith('!') ? pattern.slice(1) : pattern;
  // Braces and commas are dropped before looking for `..`, so that no expansion can produce it.
  const flattened = body.replace(/[{},]/g, '');
  const climbs = flattened.split(/[\\/]/).some((segment) => segment.startsWith('..'));
  if (
    /^[\\/]/.test(body) ||
    /^[\\/]/.test(flattened) ||
    /^[A-Za-z]:/.test(body) ||
    climbs ||
    body.includes('\0')
  ) {
    throw toolFailure(
      toolName,
      `The ${parameter} ${JSON.stringify(pattern)} reaches outside the workspace root "${root}" (absolute, or with ".."): use a pattern relative to the search directory.`,
      { [parameter]: pattern, root },
    );
  }
  return pattern;
}

/** `text` with every glob metacharacter escaped, so that it matches only itself. */
export function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]{}()!@+|]/g, '\\$&');
}

/**
 * A glob as a regular expression over `/`-separated relative paths, as picomatch reads it with
 * `dot: true`: `*` and `?` within a segment, `**` as a whole segment any number of segments,
 * `{a,b}` alternatives (nested too), `[abc]` and `[!abc]` classes, `\` escapes.
 */
export function globToRegExp(pattern: string): RegExp {
  let source = '';
  const braces: number[] = [];
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    const atSegmentStart = index === 0 || pattern[index - 1] === '/';
    if (char === '\\' && index + 1 < pattern.length) {
      source += escapeRegExp(pattern[++index]!);
    } else if (char === '*' && pattern[index + 1] === '*' && atSegmentStart) {
      const next = pattern[index + 2];
      if (next === '/') {
        source += '(?:[^/]*/)*';
        index += 2;
      } else if (next === undefined) {
        source += '.*';
        index += 1;
      } else {
        source += '[^/]*';
        index += 1;
      }
    } else if (char === '*') {
      source += '[^/]*';
      while (pattern[index + 1] === '*') index++;
    } else if (char === '?') source += '[^/]';
    else if (char === '{') {
      braces.push(source.length);
      source += '(?:';
    } else if (char === '}' && braces.length > 0) {
      braces.pop();
      source += ')';
    } else if (char === ',' && braces.length > 0) source += '|';
    else if (char === '[') {
      const end = pattern.indexOf(']', index + 2);
      if (end === -1) source += '\\[';
      else {
        source += `[${pattern.slice(index + 1, end).replace(/^!/, '^')}]`;
        index = end;
      }
    } else source += escapeRegExp(char);
  }
  // An unclosed brace is a literal one.
  for (const at of braces.reverse()) source = `${source.slice(0, at)}\\{${source.slice(at + 3)}`;
  return new RegExp(`^${source}$`);
}

function escapeRegExp(char: string): string {
  return /[.+^$()|\\[\]{}*?/]/.test(char) ? `\\${char}` : char;
}

/** Which files a glob walk keeps and which directories it need not enter (see {@link createGlobFilter}). */
export interface GlobFilter {
  /** Whether a file at this relative path is a result. */
  matches(path: string): boolean;
  /** Whether the directory at this relative path is ignored whole (an ignore glob `dir/**`). */
  skipsDirectory(path: string): boolean;
}

/**
 * The filter of a `GlobRequest` for a file system that walks directories itself (OPFS): paths are
 * relative to the request's directory.
 */
export function createGlobFilter(patterns: readonly string[], ignore: readonly string[]): GlobFilter {
  const wanted = patterns.map(globToRegExp);
  const unwanted = ignore.map(globToRegExp);
  const skipped = ignore
    .filter((glob) => glob.endsWith('/**'))
    .map((glob) => globToRegExp(glob.slice(0, -3)));
  return {
    matches: (path) =>
      wanted.some((regex) => regex.test(path)) && !unwanted.some((regex) => regex.test(path)),
    skipsDirectory: (path) => skipped.some((regex) => regex.test(path)),
  };
}

/**
 * Orders `/`-separated relative paths as a sorted directory walk visits them: segment by segment,
 * so `a/b` comes before `a.txt` (the order ripgrep's `--sort path` gives).
 */
export function comparePaths(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) {
    const x = left[index]!;
    const y = right[index]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return left.length - right.length;
}
