import { type VariablePolicy, type VariableRefusal, variableRefusal } from './variable-policy.js';

/** A `${VAR}` (or `${VAR:-default}`) that names a variable the environment does not set. */
export interface MissingVariable {
  name: string;
  /** Where it was written, e.g. `mcpServers.github.env.GITHUB_TOKEN`. */
  field: string;
}

/** The first `${VAR}` of a text that {@link VariablePolicy} refuses, and why. */
export interface RefusedVariable {
  name: string;
  reason: VariableRefusal;
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** The first `${VAR}` in `text` that `policy` refuses in `field` (see {@link variableRefusal}). */
export function refusedVariable(
  text: string,
  field: string,
  policy: VariablePolicy,
  environment: Readonly<Record<string, string | undefined>> = {},
): RefusedVariable | undefined {
  for (const match of text.matchAll(REFERENCE)) {
    const name = match[1]!;
    const reason = variableRefusal(name, field, policy, environment[name]);
    if (reason) return { name, reason };
  }
  return undefined;
}

/**
 * Expands `${VAR}` and `${VAR:-default}` in `text` from `environment`, as Claude Code does in
 * `.mcp.json`. A variable that is unset and has no default expands to the empty string and is
 * added to `missing` (with `field`), so the caller can say which server lacks what. It reads any
 * variable: check the text against a policy first (`parseMcpConfig` does).
 */
export function expandVariables(
  text: string,
  environment: Readonly<Record<string, string | undefined>>,
  field: string,
  missing: MissingVariable[],
): string {
  return text.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
    const value = environment[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    missing.push({ name, field });
    return '';
  });
}
