/**
 * Variables of this process a `bash` command gets by default: what a shell and common tools need
 * to run (where programs are, whose home, language and terminal, time zone, temporary directory).
 * Anything else, however harmless its name looks, reaches a command only when the host names it.
 */
export const BASH_ENVIRONMENT_ALLOW_LIST: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'COLORTERM',
  'NO_COLOR',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
];

/** Locale variables (`LC_ALL`, `LC_CTYPE`, ...), allowed like `LANG`. */
const LOCALE = /^LC_[A-Z_]+$/;

/**
 * The environment of a `bash` command, read from `source` (default: this process's, at each
 * call): the {@link BASH_ENVIRONMENT_ALLOW_LIST} and `LC_*` variables, plus the names in `pass`.
 */
export function bashEnvironment(
  pass: readonly string[],
  source: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (BASH_ENVIRONMENT_ALLOW_LIST.includes(name) || LOCALE.test(name) || pass.includes(name))
      environment[name] = value;
  }
  return environment;
}
