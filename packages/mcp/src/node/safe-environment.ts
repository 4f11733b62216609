/**
 * Variables a stdio MCP server inherits from troupe: what a program needs to run (PATH, HOME,
 * locale, temp dir, proxy and CA settings), never credentials. Everything else, troupe's
 * `ANTHROPIC_API_KEY` included, reaches a server only if its configuration's `env` names it.
 */
export const INHERITED_VARIABLES = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  'SYSTEMROOT',
  'APPDATA',
  'LOCALAPPDATA',
  'USERPROFILE',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
] as const;

/** The environment of a stdio server: the inherited safe variables plus its configured `env`. */
export function serverEnvironment(
  configured: Readonly<Record<string, string>>,
  host: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of INHERITED_VARIABLES) {
    const value = host[name];
    if (value !== undefined) environment[name] = value;
  }
  return { ...environment, ...configured };
}
