// Reads facts out of the Node tools' text answers, so the demo's scripted agents report what the
// tools really found in the workspace.

/** Paths listed by a `glob` answer, and how many matched in all (the answer may list fewer). */
export function globFacts(text: string): { paths: string[]; total: number } {
  if (/^No files match/.test(text)) return { paths: [], total: 0 };
  const [listing = '', note = ''] = text.split('\n\n');
  const paths = listing.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('['));
  const total = Number(/\((\d+) in all\)/.exec(note)?.[1] ?? paths.length);
  return { paths, total };
}

/** Totals of a `grep` answer in `count` mode, and the file with the most matches. */
export function grepCountFacts(text: string): {
  lines: number;
  files: number;
  top?: { path: string; count: number };
} {
  const total = /Total: (\d+) matching lines? in (\d+) files?/.exec(text);
  if (!total) return { lines: 0, files: 0 };
  let top: { path: string; count: number } | undefined;
  for (const line of text.split('\n')) {
    const match = /^(.+):(\d+)$/.exec(line);
    if (!match) continue;
    const count = Number(match[2]);
    if (!top || count > top.count) top = { path: match[1]!, count };
  }
  return { lines: Number(total[1]), files: Number(total[2]), ...(top ? { top } : {}) };
}

/** Folders and files of an `ls` answer. */
export function lsFacts(text: string): { directories: string[]; files: string[] } {
  const [, ...entries] = text.split('\n');
  const directories: string[] = [];
  const files: string[] = [];
  for (const entry of entries) {
    if (!entry.trim() || entry.startsWith('[')) continue;
    if (entry.endsWith('/')) directories.push(entry.slice(0, -1));
    else files.push(entry.replace(/\s+\(.*\)$/, '').replace(/ -> .*$/, ''));
  }
  return { directories, files };
}

/** The file text of a `read` answer (its `cat -n` numbering removed). */
export function readText(text: string): string {
  return text
    .split('\n')
    .filter((line) => /^\s*\d+\t/.test(line))
    .map((line) => line.replace(/^\s*\d+\t/, ''))
    .join('\n');
}

/** The first whole number in a `bash` answer. */
export function firstNumber(text: string): number | undefined {
  const match = /\d+/.exec(text);
  return match ? Number(match[0]) : undefined;
}

/** `a, b, c and 4 more`. */
export function listSome(items: readonly string[], max = 3): string {
  if (items.length === 0) return 'none';
  const shown = items.slice(0, max);
  const more = items.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  if (shown.length === 1) return shown[0]!;
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}
