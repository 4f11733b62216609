/**
 * Which `${VAR}` references a configuration may expand: the host's own configuration may read any
 * variable (`'all'`); a project's (a cloned repository's `.mcp.json`, a project agent file) only
 * the names the user allowed in their own settings, plus {@link HARMLESS_VARIABLES}.
 */
export interface VariablePolicy {
  allow: 'all' | readonly string[];
  /** Appended to a refusal: how the user allows a variable (e.g. the settings key to edit). */
  howToAllow?: string;
}

/** Variables a project's configuration may always read: where things are, never credentials. */
export const HARMLESS_VARIABLES: readonly string[] = ['HOME', 'USER', 'LOGNAME', 'PWD', 'TMPDIR'];

const SECRET_WORD =
  /(KEY|TOKEN|SECRET|PASSW|PWD_|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE|CERT|DSN|SIGNATURE|(^|_)PAT($|_)|(^|_)PASS($|_)|DATABASE_URL|CONNECTION_STRING)/i;

/**
 * True when a variable's name looks like it holds a credential (`*_KEY`, `*_TOKEN`, `*SECRET*`,
 * `*PASSWORD*`, `GH_PAT`, `DATABASE_URL`, ...). Such a variable never goes on a command line.
 */
export function isSecretLookingName(name: string): boolean {
  return SECRET_WORD.test(name);
}

/** Credentials recognisable by their value: a URL with a password, well-known key and token prefixes. */
const SECRET_VALUE =
  /[a-z][\w+.-]*:\/\/[^/\s:@]*:[^/\s@]+@|\b(sk-ant-|sk-|ghp_|gho_|ghs_|github_pat_|glpat-|xox[abpr]-|AKIA[0-9A-Z]{12}|AIza)/;

/**
 * True when a variable's value looks like a credential whatever its name (`postgres://u:pw@host`,
 * `sk-ant-…`, `ghp_…`, `AKIA…`): such a value never goes on a command line either.
 */
export function isSecretLookingValue(value: string | undefined): boolean {
  return value !== undefined && SECRET_VALUE.test(value);
}

/** Why a `${VAR}` was refused. */
export type VariableRefusal = 'not-allowed' | 'secret-on-command-line';

/** Fields whose value ends up on the server's command line (visible to every local user in `ps`). */
export function isCommandLineField(field: string): boolean {
  return field === 'command' || field === 'cwd' || field.startsWith('args.');
}

/**
 * Why `name`, read in `field`, may not be expanded under `policy`; undefined when it may. `value`
 * (the variable's value, if set) is checked too on a command line (see {@link isSecretLookingValue}).
 */
export function variableRefusal(
  name: string,
  field: string,
  policy: VariablePolicy,
  value?: string,
): VariableRefusal | undefined {
  if (isCommandLineField(field) && (isSecretLookingName(name) || isSecretLookingValue(value)))
    return 'secret-on-command-line';
  if (policy.allow === 'all' || HARMLESS_VARIABLES.includes(name) || policy.allow.includes(name))
    return undefined;
  return 'not-allowed';
}
