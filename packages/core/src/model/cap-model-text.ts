import { MAX_STORED_TOOL_OUTPUT_CHARS } from '../tools/cap-tool-output.js';

/**
 * Most characters of one text or thinking block of a model response kept in a conversation and
 * its journal: the same limit as a tool result (`MAX_STORED_TOOL_OUTPUT_CHARS`).
 */
export const MAX_MODEL_TEXT_CHARS = MAX_STORED_TOOL_OUTPUT_CHARS;

/**
 * A copy of `text` that holds no reference to a larger string: V8 keeps the whole of a string
 * alive behind a slice of it, so a 50 MB model text cut to 1 MB would stay 50 MB in memory.
 */
function detached(text: string): string {
  return ` ${text}`.slice(1);
}

/**
 * Cuts a model's text or thinking block to `maxChars` characters, with a note saying how much was
 * dropped. `kept` is how many characters of `text` were kept (all of them when it fits).
 */
export function capModelText(
  text: string,
  maxChars: number = MAX_MODEL_TEXT_CHARS,
): { text: string; kept: number } {
  if (text.length <= maxChars) return { text, kept: text.length };
  const dropped = text.length - maxChars;
  const note = `\n\n[Model text cut: ${dropped.toLocaleString('en-US')} more characters were not kept.]`;
  return { text: detached(text.slice(0, maxChars) + note), kept: maxChars };
}
