import { analyseShellLine } from './shell-line.js';

/**
 * The narrowest prefix rule worth offering as "always allow" for a shell line, in Claude Code's
 * syntax: `Bash(npm test:*)` for `npm test -- --watch` (the program and a sub-command that looks
 * like one). Undefined unless the line runs exactly one command, written plainly (no variable
 * assignment, wrapper or path before the program, no expansion deciding a word), writes no file
 * and can be analysed with certainty: a rule offered for more would allow more than was asked.
 */
export function suggestCommandRule(command: string): string | undefined {
  const line = analyseShellLine(command);
  if (line.unanalysable !== undefined || line.writesFiles || line.commands.length !== 1) return undefined;
  const [only] = line.commands;
  if (!only?.plain || only.openEnded) return undefined;
  const [program, second] = only.words;
  if (!program || !/^[\w.+-]+$/.test(program)) return undefined;
  const sub = second && /^[a-z][\w:-]*$/i.test(second) ? ` ${second}` : '';
  return `Bash(${program}${sub}:*)`;
}
