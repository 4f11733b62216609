/** Default cap on the text a workspace tool returns to the model, in characters. */
export const DEFAULT_MAX_OUTPUT_CHARS = 30_000;

const format = (count: number) => count.toLocaleString('en-US');

/**
 * Keeps the start of `text` when it is longer than `max` characters, cut at a line end where one
 * is near, and appends a note saying how much was cut and, optionally, how to see the rest.
 */
export function truncateHead(text: string, max: number, hint?: string): string {
  if (text.length <= max) return text;
  let end = text.lastIndexOf('\n', max);
  if (end < max * 0.8) end = max;
  const cut = text.length - end;
  const advice = hint ? ` ${hint}` : '';
  return `${text.slice(0, end)}\n\n[Output truncated: ${format(cut)} of ${format(text.length)} characters cut.${advice}]`;
}

/** Number of `\n` in `text`. */
export function countNewlines(text: string): number {
  let count = 0;
  let index = text.indexOf('\n');
  while (index !== -1) {
    count++;
    index = text.indexOf('\n', index + 1);
  }
  return count;
}

/** A line as shown to the model: without a trailing `\r`, cut to `max` characters with a marker. */
export function displayLine(text: string, max: number): string {
  const line = text.endsWith('\r') ? text.slice(0, -1) : text;
  return line.length > max ? `${line.slice(0, max)}… [line cut: ${line.length - max} more characters]` : line;
}

/** Formats one line as `cat -n` does: the number right-aligned in six columns, a tab, the text. */
export function numberedLine(line: number, text: string): string {
  return `${String(line).padStart(6, ' ')}\t${text}`;
}

/** Bytes `text` takes in UTF-8 (a lone surrogate counts as U+FFFD, 3 bytes, as encoders write it). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}
