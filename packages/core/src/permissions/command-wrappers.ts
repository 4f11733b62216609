/**
 * A word of a command as the shell would pass it to the program, or `undefined` when it depends on
 * an expansion (`$X`, `$(…)`, a glob, a brace expansion) and so cannot be known before it runs.
 */
export type ShellWord = string | undefined;

/** What a program that runs its arguments as a command takes before that command. */
interface WrapperSpec {
  /** Options that take the next word as their value (short `-u` or long `--user`). */
  valued?: readonly string[];
  /** Options that take no value. An option in neither list makes the command unanalysable. */
  flags?: readonly string[];
  /** Options after which the rest is not a plain command (`env -S` splits a string). */
  refused?: readonly string[];
  /** Positional words before the command (timeout's duration, flock's lock file). */
  positionals?: number;
  /** Leading `NAME=value` words set variables (env). */
  assignments?: boolean;
  /** The command gets more arguments than the line shows (xargs adds its input). */
  openEnded?: boolean;
  /** Options that name a string xargs replaces in the command's words. */
  replace?: readonly string[];
  /** An option made of a minus and digits is a value (nice -5). */
  numericOption?: boolean;
}

/** Programs that run their arguments as a command, and how to find that command. */
const WRAPPERS: Record<string, WrapperSpec> = {
  env: {
    flags: ['-i', '-0', '--null', '--ignore-environment', '-v', '--debug', '-'],
    valued: ['-u', '--unset', '-C', '--chdir'],
    refused: ['-S', '--split-string'],
    assignments: true,
  },
  command: { flags: ['-p', '-v', '-V'] },
  builtin: {},
  exec: { flags: ['-c', '-l'], valued: ['-a'] },
  nice: { valued: ['-n', '--adjustment'], numericOption: true },
  nohup: {},
  time: {
    flags: ['-p', '-a', '-v', '-q', '--portability', '--append', '--verbose', '--quiet'],
    valued: ['-f', '-o', '--format', '--output'],
  },
  timeout: {
    flags: ['--preserve-status', '--foreground', '-v', '--verbose'],
    valued: ['-s', '-k', '--signal', '--kill-after'],
    positionals: 1,
  },
  xargs: {
    flags: [
      '-0',
      '-r',
      '-t',
      '-p',
      '-x',
      '-o',
      '--null',
      '--no-run-if-empty',
      '--verbose',
      '--interactive',
      '--exit',
      '--open-tty',
    ],
    valued: [
      '-a',
      '-d',
      '-E',
      '-I',
      '-L',
      '-n',
      '-P',
      '-s',
      '--arg-file',
      '--delimiter',
      '--eof',
      '--max-lines',
      '--max-args',
      '--max-procs',
      '--max-chars',
      '--process-slot-var',
    ],
    replace: ['-I', '-i', '--replace'],
    openEnded: true,
  },
  sudo: {
    flags: [
      '-A',
      '-b',
      '-E',
      '-H',
      '-K',
      '-k',
      '-n',
      '-P',
      '-S',
      '-B',
      '-N',
      '--askpass',
      '--background',
      '--preserve-env',
      '--set-home',
      '--non-interactive',
      '--preserve-groups',
      '--stdin',
      '--bell',
      '--no-update',
      '--',
    ],
    valued: [
      '-C',
      '-D',
      '-g',
      '-h',
      '-p',
      '-R',
      '-r',
      '-t',
      '-T',
      '-U',
      '-u',
      '--close-from',
      '--chdir',
      '--group',
      '--host',
      '--prompt',
      '--chroot',
      '--role',
      '--type',
      '--command-timeout',
      '--other-user',
      '--user',
    ],
    refused: ['-i', '-s', '--login', '--shell', '-e', '--edit', '-l', '--list'],
  },
  doas: { flags: ['-n'], valued: ['-u', '-C'], refused: ['-s'] },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  setsid: { flags: ['-c', '-f', '-w', '--ctty', '--fork', '--wait'] },
  ionice: { flags: ['-t', '--ignore'], valued: ['-c', '-n', '--class', '--classdata'] },
  unbuffer: { flags: ['-p'] },
  chronic: { flags: ['-e', '-v'] },
  flock: {
    flags: [
      '-s',
      '-x',
      '-e',
      '-n',
      '-u',
      '-o',
      '-F',
      '--shared',
      '--exclusive',
      '--nonblock',
      '--unlock',
      '--close',
      '--no-fork',
      '--verbose',
    ],
    valued: ['-w', '-E', '--timeout', '--wait', '--conflict-exit-code'],
    refused: ['-c', '--command'],
    positionals: 1,
  },
  chroot: { valued: ['--userspec', '--groups'], flags: ['--skip-chdir'], positionals: 1 },
  // watch joins its arguments into a string for `sh -c` (see unwrapCommand).
  watch: {
    flags: [
      '-b',
      '-e',
      '-g',
      '-c',
      '-C',
      '-p',
      '-t',
      '-w',
      '-d',
      '--beep',
      '--errexit',
      '--chgexit',
      '--color',
      '--no-color',
      '--precise',
      '--no-title',
      '--no-wrap',
      '--differences',
    ],
    valued: ['-n', '-q', '--interval', '--equexit'],
    refused: ['-x', '--exec'],
  },
};

/** Shells whose `-c` runs a string, and that read commands from standard input without one. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox']);
const SHELL_VALUED = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file']);

/** Programs that run the string of their `-c`/`--command` option with a shell, wherever it stands. */
const COMMAND_STRING_PROGRAMS = new Set(['su', 'runuser', 'script']);

/** The `-c` string of su, runuser or script, or why there is none to read. */
function commandStringOption(name: string, words: readonly ShellWord[]): Unwrapped {
  for (let index = 1; index < words.length; index++) {
    const word = words[index];
    if (word === undefined) continue;
    if (word.startsWith('--command='))
      return { kind: 'shell-string', script: word.slice(10), wrappers: [name] };
    if (word === '--command' || /^-[A-Za-z]*c$/.test(word))
      return { kind: 'shell-string', script: words[index + 1], wrappers: [name] };
  }
  return {
    kind: 'unanalysable',
    reason: `${name} without -c starts a shell that reads commands from its input`,
  };
}

/** The program's name without its path (`/usr/bin/git` → `git`). */
function programName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

/** Where a command stands after {@link unwrapCommand}. */
type Unwrapped =
  | { kind: 'command'; words: ShellWord[]; openEnded: boolean; wrappers: string[] }
  | { kind: 'shell-string'; script: ShellWord; wrappers: string[] }
  | { kind: 'unanalysable'; reason: string };

function optionName(word: string): string {
  return word.startsWith('--') ? word.split('=')[0]! : word.slice(0, 2);
}

/**
 * Skips a wrapper's options and positionals. Returns the index of the command, or a reason the
 * words cannot be read with certainty.
 */
function skipWrapperOptions(
  name: string,
  spec: WrapperSpec,
  words: readonly ShellWord[],
  start: number,
): { index: number; replaced?: string } | { reason: string } {
  let index = start;
  let replaced: string | undefined;
  let positionals = spec.positionals ?? 0;
  for (; index < words.length; index++) {
    const word = words[index];
    if (word === undefined) return { reason: `an option of ${name} is an expansion` };
    if (word === '--') {
      index++;
      break;
    }
    if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) continue;
    if (!word.startsWith('-') || word === '-') {
      if (word === '-' && spec.flags?.includes('-')) continue;
      if (positionals > 0) {
        positionals--;
        continue;
      }
      break;
    }
    if (spec.numericOption && /^-\d+$/.test(word)) continue;
    const option = optionName(word);
    if (spec.refused?.includes(option)) return { reason: `${name} ${option} runs a string or a shell` };
    if (spec.replace?.includes(option)) {
      const attached = word.startsWith('--') ? word.split('=')[1] : word.slice(2);
      const value = attached || (option === '-I' ? words[index + 1] : '{}');
      if (value === undefined) return { reason: `${name} ${option} names an expansion` };
      replaced = value;
      if (option === '-I' && !attached) index++;
      continue;
    }
    if (spec.valued?.includes(option)) {
      const attached = word.startsWith('--') ? word.includes('=') : word.length > 2;
      if (!attached) index++;
      continue;
    }
    if (spec.flags?.includes(option) && (word.startsWith('--') || word.length === 2)) continue;
    // A cluster of flags (`-ia`): every letter a known flag.
    if (!word.startsWith('--') && [...word.slice(1)].every((letter) => spec.flags?.includes(`-${letter}`)))
      continue;
    return { reason: `${name} has an option troupe does not know (${word})` };
  }
  return replaced === undefined ? { index } : { index, replaced };
}

/** A shell's `-c` string, or a reason the call cannot be read (it reads commands from stdin). */
function shellCall(name: string, words: readonly ShellWord[]): Unwrapped {
  let command = false;
  let index = 1;
  if (name === 'busybox') {
    if (words[1] === undefined || !SHELLS.has(words[1]) || words[1] === 'busybox')
      return { kind: 'command', words: [...words], openEnded: false, wrappers: [] };
    index = 2;
  }
  for (; index < words.length; index++) {
    const word = words[index];
    if (word === undefined) return { kind: 'unanalysable', reason: `an option of ${name} is an expansion` };
    if (word === '--' || word === '-') {
      index++;
      break;
    }
    if (!/^[-+]/.test(word)) break;
    if (SHELL_VALUED.has(word)) {
      index++;
      continue;
    }
    if (!word.startsWith('--') && word.slice(1).includes('c')) command = true;
    if (!word.startsWith('--') && word.slice(1).includes('s'))
      return { kind: 'unanalysable', reason: `${name} -s reads commands from standard input` };
  }
  if (command) {
    if (index >= words.length) return { kind: 'unanalysable', reason: `${name} -c has no command string` };
    return { kind: 'shell-string', script: words[index], wrappers: [] };
  }
  if (index >= words.length)
    return {
      kind: 'unanalysable',
      reason: `${name} without -c or a script file reads commands from standard input`,
    };
  // A script file: it runs, and what it holds is not part of this line.
  return { kind: 'command', words: [...words], openEnded: false, wrappers: [] };
}

/**
 * Removes the wrappers that run their arguments as a command (`env`, `command`, `exec`, `nice`,
 * `nohup`, `time`, `timeout`, `xargs`, `sudo`, `stdbuf`, …) and the path of the program's name,
 * and recognises a shell's `-c` string. `words[0]` must be known.
 */
export function unwrapCommand(words: readonly ShellWord[]): Unwrapped {
  const wrappers: string[] = [];
  let rest: ShellWord[] = [...words];
  let openEnded = false;
  for (let depth = 0; depth < 32; depth++) {
    const first = rest[0];
    if (first === undefined) {
      if (rest.length === 0) return { kind: 'command', words: [], openEnded, wrappers };
      return { kind: 'unanalysable', reason: 'the command name is an expansion' };
    }
    const name = programName(first);
    rest[0] = name;
    if (SHELLS.has(name)) {
      const call = shellCall(name, rest);
      if (call.kind === 'unanalysable') return call;
      if (call.kind === 'shell-string') return { ...call, wrappers };
      return { kind: 'command', words: rest, openEnded, wrappers };
    }
    if (COMMAND_STRING_PROGRAMS.has(name)) return commandStringOption(name, rest);
    const spec = WRAPPERS[name];
    if (!spec) return { kind: 'command', words: rest, openEnded, wrappers };
    const skipped = skipWrapperOptions(name, spec, rest, 1);
    if ('reason' in skipped) return { kind: 'unanalysable', reason: skipped.reason };
    wrappers.push(name);
    if (name === 'watch') {
      const script = rest.slice(skipped.index);
      const known = script.every((word) => word !== undefined);
      return { kind: 'shell-string', script: known ? script.join(' ') : undefined, wrappers };
    }
    openEnded ||= spec.openEnded === true;
    const replaced = skipped.replaced;
    rest = rest
      .slice(skipped.index)
      .map((word) => (replaced !== undefined && word?.includes(replaced) ? undefined : word));
    // xargs with no command runs echo.
    if (rest.length === 0 && name === 'xargs') rest = ['echo'];
  }
  return { kind: 'unanalysable', reason: 'too many wrapper programs in a row' };
}
