// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escape sequences is the point.
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

/** The text without ANSI escape sequences. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** Columns a single line takes on a terminal (escape codes take none). */
export function visibleWidth(text: string): number {
  return [...stripAnsi(text)].length;
}

/**
 * Cuts a single line to `width` visible columns, ending in `…` when cut. Escape sequences are
 * kept (so colours stay balanced) and take no room.
 */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  if (visibleWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  let index = 0;
  while (index < text.length) {
    ANSI.lastIndex = index;
    const sequence = ANSI.exec(text);
    if (sequence && sequence.index === index) {
      out += sequence[0];
      index += sequence[0].length;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(index)!);
    if (used === width - 1) {
      out += '…';
      used++;
      index += char.length;
      // Keep the remaining escape codes (closing styles), drop the text.
      out += [...text.slice(index).matchAll(ANSI)].map((match) => match[0]).join('');
      break;
    }
    out += char;
    used++;
    index += char.length;
  }
  return out;
}

/** Pads a line with spaces to `width` visible columns (left-aligned, or right-aligned). */
export function pad(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const room = Math.max(0, width - visibleWidth(text));
  return align === 'left' ? text + ' '.repeat(room) : ' '.repeat(room) + text;
}

/** The first non-empty line of a text, trimmed and collapsed. */
export function firstLine(text: string): string {
  const line = text.split(/\r?\n/).find((candidate) => candidate.trim() !== '') ?? '';
  return line.replace(/\s+/g, ' ').trim();
}

/** Indents every line of a block. */
export function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}

/**
 * Splits a single line into rows of at most `width` visible columns (a terminal's wrapping done
 * ahead, so each row can be drawn on its own). Styles open at a cut are closed at the end of the
 * row and opened again at the start of the next one.
 */
export function wrapVisible(text: string, width: number): string[] {
  if (width <= 0 || visibleWidth(text) <= width) return [text];
  const rows: string[] = [];
  let row = '';
  let used = 0;
  /** The style sequences in effect (since the last reset). */
  let open = '';
  let index = 0;
  while (index < text.length) {
    ANSI.lastIndex = index;
    const sequence = ANSI.exec(text);
    if (sequence && sequence.index === index) {
      row += sequence[0];
      open = sequence[0] === '\x1b[0m' || sequence[0] === '\x1b[m' ? '' : open + sequence[0];
      index += sequence[0].length;
      continue;
    }
    if (used === width) {
      rows.push(open ? `${row}\x1b[0m` : row);
      row = open;
      used = 0;
    }
    const char = String.fromCodePoint(text.codePointAt(index)!);
    row += char;
    used++;
    index += char.length;
  }
  rows.push(row);
  return rows;
}
