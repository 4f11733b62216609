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

/** Why a `${VAR}` was refused. */
export type VariableRefusal = 'not-allowed' | 'secret-on-command-line';

/** Fields whose value ends up on the server's command line (visible to every local user in `ps`). */
export function isCommandLineField(field: string): boolean {
  return field === 'command' || field === 'cwd' || field.startsWith('args.');
}

/** Why `name`, read in `field`, may not be expanded under `policy`; undefined when it may. */
export function variableRefusal(
  name: string,
  field: string,
  policy: VariablePolicy,
): VariableRefusal | undefined {
  if (isCommandLineField(field) && isSecretLookingName(name)) return 'secret-on-command-line';
  if (policy.allow === 'all' || HARMLESS_VARIABLES.includes(name) || policy.allow.includes(name))
    return undefined;
  return 'not-allowed';
}
