/** Default cap on the text a tool returns to the model, in characters (as the Node tools). */
export const MAX_OUTPUT_CHARS = 30_000;

/** Lines `read` returns when no limit is given. */
export const READ_DEFAULT_LIMIT = 2_000;

/** Formats one line as `cat -n` does: the number right-aligned in six columns, a tab, the text. */
export function numbered(line: number, text: string): string {
  return `${String(line).padStart(6, ' ')}\t${text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text}`;
}

/** Keeps the start of `text` when it is longer than `max`, with a note saying how much was cut. */
export function truncateHead(text: string, max: number, hint: string): string {
  if (text.length <= max) return text;
  let end = text.lastIndexOf('\n', max);
  if (end < max * 0.8) end = max;
  return `${text.slice(0, end)}\n\n[Output truncated: ${(text.length - end).toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters cut. ${hint}]`;
}

/** Lines of a text without the empty string after a final newline. */
export function linesOf(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * A glob pattern as a regular expression over `/`-separated paths: `**` any depth, `*` and `?`
 * within a segment, `{a,b}` alternatives, `[abc]` classes. A pattern without `/` matches file
 * names at any depth.
 */
export function globToRegExp(pattern: string): RegExp {
  const anchored = pattern.includes('/') ? pattern : `**/${pattern}`;
  let source = '';
  for (let index = 0; index < anchored.length; index++) {
    const char = anchored[index]!;
    if (char === '*' && anchored[index + 1] === '*') {
      const slash = anchored[index + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      index += slash ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '{') source += '(?:';
    else if (char === '}') source += ')';
    else if (char === ',' && source.lastIndexOf('(?:') > source.lastIndexOf(')')) source += '|';
    else if (char === '[') {
      const end = anchored.indexOf(']', index);
      if (end === -1) source += '\\[';
      else {
        source += `[${anchored.slice(index + 1, end).replace(/^!/, '^')}]`;
        index = end;
      }
    } else source += /[.+^$()|\\]/.test(char) ? `\\${char}` : char;
  }
  return new RegExp(`^${source}$`);
}
