import type { McpServerConfig } from './config/server-config.js';

/** The values in a server's `env` and `headers` (secrets, as far as troupe knows). */
export function secretsOf(config: McpServerConfig): string[] {
  const values = Object.values(config.type === 'stdio' ? config.env : config.headers);
  // Very short values ('1', 'true') would blank out ordinary words; they are not secrets.
  return values.filter((value) => value.length >= 6);
}

/** Replaces every occurrence of a secret in `text` with `***`. */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) result = result.split(secret).join('***');
  return result;
}
