/** Default cap on the text a tool returns to the model, in characters. */
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

/**
 * Keeps the start and the end of `text` (half of `max` each) when it is longer than `max`
 * characters, with a note in the middle saying how much was cut. For command output, where the
 * last lines often matter most.
 */
function _truncateMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  const cut = text.length - 2 * half;
  return `${text.slice(0, half)}\n\n[... ${format(cut)} of ${format(text.length)} characters cut ...]\n\n${text.slice(text.length - half)}`;
}
