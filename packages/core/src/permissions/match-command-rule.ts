import type { PermissionRule } from './permission-rule.js';
import { analyseShellLine, type ShellCommand } from './shell-line.js';

/** How a deny rule meets a command: it runs it, it may run it (an expansion decides), or it does not. */
type DenyVerdict = 'match' | 'maybe' | 'none';

type CommandScope = { kind: 'command'; command: string } | { kind: 'command-prefix'; prefix: string };

const wordsOfScope = new WeakMap<CommandScope, readonly string[]>();

/** The words of a rule's command (`git push` of `Bash(git push:*)`), read as the shell reads them. */
function scopeWords(scope: CommandScope): readonly string[] {
  let words = wordsOfScope.get(scope);
  if (words) return words;
  const text = scope.kind === 'command' ? scope.command : scope.prefix;
  const line = analyseShellLine(text);
  const only = line.commands.length === 1 && line.unanalysable === undefined ? line.commands[0] : undefined;
  words =
    only && !only.openEnded && only.words.every((word) => word !== undefined)
      ? (only.words as string[])
      : text.trim().split(/\s+/);
  wordsOfScope.set(scope, words);
  return words;
}

/**
 * A program name as a deny rule compares it: letter case ignored and `.exe` dropped, since on
 * macOS and Windows `GIT` and `git.exe` run git.
 */
function programKey(name: string): string {
  return name.toLowerCase().replace(/\.exe$/, '');
}

/**
 * Whether a deny rule's words meet a command. Between the rule's words the command may carry
 * options, each perhaps with a value (`git -C dir push` meets `git push`), so that an option
 * cannot slip a command past a deny rule. A word that depends on an expansion may be anything,
 * so from there on the verdict is at best `maybe`.
 */
function denyWords(rule: readonly string[], command: ShellCommand, exact: boolean): DenyVerdict {
  const words = command.words;
  if (words[0] === undefined || programKey(words[0]) !== programKey(rule[0] ?? '')) return 'none';
  const memo = new Map<number, DenyVerdict>();
  const best = (a: DenyVerdict, b: DenyVerdict): DenyVerdict =>
    a === 'match' || b === 'match' ? 'match' : a === 'maybe' || b === 'maybe' ? 'maybe' : 'none';
  const step = (at: number, next: number): DenyVerdict => {
    const key = at * (rule.length + 1) + next;
    const known = memo.get(key);
    if (known) return known;
    let verdict: DenyVerdict;
    if (next === rule.length) verdict = !exact || at === words.length ? 'match' : 'none';
    else if (at >= words.length) verdict = command.openEnded ? 'maybe' : 'none';
    else {
      const word = words[at];
      if (word === undefined) verdict = 'maybe';
      else {
        verdict = word === rule[next] ? step(at + 1, next + 1) : 'none';
        if (verdict !== 'match' && !exact && word.startsWith('-'))
          verdict = best(verdict, best(step(at + 1, next), step(at + 2, next)));
      }
    }
    memo.set(key, verdict);
    return verdict;
  };
  return step(1, 1);
}

/** How a deny rule with a command specifier meets one command of a line. */
export function denyVerdict(scope: CommandScope, command: ShellCommand): DenyVerdict {
  return denyWords(scopeWords(scope), command, scope.kind === 'command');
}

/**
 * True when an allow rule covers one command of a line: the command is plain (no assignment, no
 * wrapper, no path on the name, not from a `bash -c` string), its words are the rule's words
 * (a prefix rule: the rule's words, then any arguments), and every word the rule names is known.
 */
export function allowCovers(scope: CommandScope, command: ShellCommand): boolean {
  if (!command.plain) return false;
  const rule = scopeWords(scope);
  const words = command.words;
  if (words.length < rule.length) return false;
  if (scope.kind === 'command' && (words.length !== rule.length || command.openEnded)) return false;
  return rule.every((word, index) => words[index] === word);
}

/** The line as a user would compare it with a rule: trimmed, runs of blanks as one space. */
export function sameCommandText(rule: PermissionRule, command: string): boolean {
  const scope = rule.scope;
  if (scope?.kind !== 'command') return false;
  const squeeze = (text: string) => text.trim().replace(/\s+/g, ' ');
  return squeeze(command) === squeeze(scope.command);
}
