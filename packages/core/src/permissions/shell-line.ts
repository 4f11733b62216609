import { type Command, forEachChild, parse, type SyntaxNode, type Word } from 'unbash';
import { type ShellWord, unwrapCommand } from './command-wrappers.js';

/** One simple command a shell line would run, normalised for permission rules. */
export interface ShellCommand {
  /**
   * The program and its arguments as the program gets them: quoting and escapes removed, leading
   * variable assignments and wrappers (`env`, `sudo`, `timeout`, …) dropped, the path cut from
   * the program's name (`/usr/bin/git` → `git`). `undefined` stands for a word that depends on an
   * expansion.
   */
  words: readonly ShellWord[];
  /** More arguments follow that the line does not show (`xargs` adds its input). */
  openEnded: boolean;
  /**
   * True when the command is written plainly: no variable assignment before it, no wrapper, no
   * path on the program's name. Allow rules cover only plain commands.
   */
  plain: boolean;
}

/** What a shell line would run, as far as can be told without running it. */
export interface ShellLine {
  /** Every simple command, including those in substitutions, subshells, functions and `bash -c`. */
  commands: ShellCommand[];
  /** Why the line cannot be analysed with certainty (`eval`, a parse error, …), if it cannot. */
  unanalysable?: string;
  /** The line redirects output into a file (anything but `/dev/null` or a descriptor). */
  writesFiles: boolean;
}

/** Lines longer than this are not analysed (parsing time grows with length). */
const MAX_ANALYSED_LENGTH = 1_000_000;
/** How deep `bash -c '…'` strings and syntax may nest before the line is refused as unanalysable. */
const MAX_SHELL_STRING_DEPTH = 8;
const MAX_SYNTAX_DEPTH = 4_000;

/** Builtins and programs that run a string or a file as shell code in this shell, or rename commands. */
const RUNS_CODE: Record<string, string> = {
  eval: 'eval runs a string as shell code',
  source: 'source runs a file as shell code',
  '.': '. runs a file as shell code',
  trap: 'trap runs a string as shell code',
  alias: 'alias makes a name run other code',
  unalias: 'unalias changes what a name runs',
  hash: 'hash can make a name run another program',
  enable: 'enable can load or hide builtins',
  fc: 'fc runs commands from the history',
};

/** Commands that evaluate their arguments as arithmetic, where `a[$(…)]` in a string runs code. */
const EVALUATES_ARITHMETIC = new Set([
  'let',
  'declare',
  'typeset',
  'local',
  'readonly',
  'export',
  'read',
  'test',
  '[',
]);

/** The word as the program gets it, or undefined when an expansion decides it. */
function wordValue(word: Word): ShellWord {
  if (!word.parts) return word.value;
  let value = '';
  for (const part of word.parts) {
    if (part.type === 'Literal' || part.type === 'SingleQuoted' || part.type === 'AnsiCQuoted')
      value += part.value;
    else if (part.type === 'DoubleQuoted') {
      for (const inner of part.parts) {
        if (inner.type !== 'Literal') return undefined;
        value += inner.value;
      }
    } else return undefined;
  }
  return value;
}

function isDescriptorOrNull(target: Word | undefined, operator: string): boolean {
  if (!target) return true;
  const value = wordValue(target);
  if (value === '/dev/null' || value === '/dev/stdout' || value === '/dev/stderr') return true;
  return (operator === '>&' || operator === '<&') && value !== undefined && /^(?:\d+|-)$/.test(value);
}

class LineAnalysis {
  readonly commands: ShellCommand[] = [];
  unanalysable: string | undefined;
  writesFiles = false;

  constructor(private readonly depth: number) {}

  refuse(reason: string): void {
    this.unanalysable ??= reason;
  }

  visit(node: SyntaxNode, depth: number): void {
    if (this.unanalysable !== undefined) return;
    if (depth > MAX_SYNTAX_DEPTH) {
      this.refuse('it nests too deeply to check');
      return;
    }
    if (node.type === 'Script') {
      const error = (node as { errors?: readonly { message: string }[] }).errors?.[0];
      if (error) {
        this.refuse(`it does not parse (${error.message})`);
        return;
      }
    }
    if (node.type === 'Command') this.command(node);
    if (node.type === 'Redirect' && node.operator !== '<' && !isDescriptorOrNull(node.target, node.operator))
      this.writesFiles = true;
    forEachChild(node, (child) => this.visit(child, depth + 1));
  }

  private command(node: Command): void {
    if (!node.name) return;
    const words: ShellWord[] = [wordValue(node.name)];
    for (const argument of node.suffix) {
      if (argument.type === 'Word') words.push(wordValue(argument));
      else if (argument.type === 'Assignment')
        words.push(argument.value.type === 'Word' ? wordValue(argument.value) : undefined);
    }
    this.add(
      words,
      node.prefix.some((item) => item.type === 'Assignment'),
    );
  }

  /** Adds a command given by its words (from the parser, or from `find -exec`). */
  add(written: ShellWord[], assigns: boolean): void {
    const unwrapped = unwrapCommand(written);
    if (unwrapped.kind === 'unanalysable') {
      this.refuse(unwrapped.reason);
      return;
    }
    if (unwrapped.kind === 'shell-string') {
      if (unwrapped.script === undefined) {
        this.refuse('a shell runs a string that is an expansion');
        return;
      }
      if (this.depth >= MAX_SHELL_STRING_DEPTH) {
        this.refuse('shell strings nest too deeply to check');
        return;
      }
      const inner = analyse(unwrapped.script, this.depth + 1);
      if (inner.unanalysable !== undefined) {
        this.refuse(inner.unanalysable);
        return;
      }
      this.writesFiles ||= inner.writesFiles;
      // The string's commands are not what the line says plainly: allow rules never cover them.
      for (const command of inner.commands) this.commands.push({ ...command, plain: false });
      return;
    }
    const { words, openEnded, wrappers } = unwrapped;
    const program = words[0];
    if (program === undefined) return;
    const reason = RUNS_CODE[program];
    if (reason) {
      this.refuse(reason);
      return;
    }
    const evaluates = EVALUATES_ARITHMETIC.has(program) || (program === 'printf' && words.includes('-v'));
    if (evaluates && words.some((word) => word !== undefined && /\$\(|`/.test(word))) {
      this.refuse(`${program} may evaluate a string with a command substitution in it`);
      return;
    }
    const plain = !assigns && wrappers.length === 0 && written[0] === program;
    this.commands.push({ words, openEnded, plain });
    if (program === 'find') this.findExec(words);
  }

  /** `find … -exec cmd {} ;` runs cmd for each file. */
  private findExec(words: readonly ShellWord[]): void {
    for (let index = 1; index < words.length; index++) {
      if (!['-exec', '-execdir', '-ok', '-okdir'].includes(words[index] ?? '')) continue;
      const end = words.findIndex((word, at) => at > index && (word === ';' || word === '+'));
      const command = words.slice(index + 1, end === -1 ? words.length : end);
      this.add(
        command.map((word) => (word?.includes('{}') ? undefined : word)),
        false,
      );
      if (end === -1) return;
      index = end;
    }
  }
}

function analyse(line: string, depth: number): ShellLine {
  const analysis = new LineAnalysis(depth);
  if (line.length > MAX_ANALYSED_LENGTH)
    analysis.refuse(`it is longer than ${MAX_ANALYSED_LENGTH} characters`);
  else analysis.visit(parse(line), 0);
  const result: ShellLine = { commands: analysis.commands, writesFiles: analysis.writesFiles };
  if (analysis.unanalysable !== undefined) result.unanalysable = analysis.unanalysable;
  return result;
}

/**
 * Parses a shell line (bash syntax) and lists every simple command it would run, normalised for
 * permission rules (see {@link ShellCommand}): commands joined by `;`, `&&`, `||`, `&`, pipes and
 * newlines, and those inside subshells, `{ …; }`, `$(…)`, backticks, process substitutions,
 * functions, control structures, `bash -c '…'`/`sh -c` strings and `find -exec`. A line whose
 * effect cannot be told for certain (a parse error, `eval`, `source`, a command name that is an
 * expansion, `bash -c "$X"`, a shell reading standard input, an unknown wrapper option) says why
 * in `unanalysable`. Never throws.
 */
export function analyseShellLine(line: string): ShellLine {
  try {
    return analyse(line, 0);
  } catch (error) {
    return {
      commands: [],
      writesFiles: false,
      unanalysable: `it could not be parsed (${(error as Error).message})`,
    };
  }
}
