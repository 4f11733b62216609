import { createRedactor, type Redactor } from '@troupe/core/internal';
import type { McpServerConfig } from './config/server-config.js';

/** Shortest `env`/`headers` value taken for a secret ('1', 'true' would blank out ordinary words). */
const MINIMUM_SECRET_LENGTH = 6;

/** The values in a server's `env` and `headers` (secrets, as far as troupe knows). */
export function secretsOf(config: McpServerConfig): string[] {
  const values = Object.values(config.type === 'stdio' ? config.env : config.headers);
  return values.filter((value) => value.length >= MINIMUM_SECRET_LENGTH);
}

// One redactor per list of secrets (a connection keeps its list for its lifetime).
const redactors = new WeakMap<readonly string[], Redactor>();

/**
 * `text` with every secret replaced by `***`: the values in `secrets` and their base64, hex and
 * URL-encoded forms, connection-string passwords and credential-shaped tokens (core's redactor).
 */
export function redact(text: string, secrets: readonly string[]): string {
  let redactor = redactors.get(secrets);
  if (!redactor) {
    redactor = createRedactor({ secrets, minimumSecretLength: MINIMUM_SECRET_LENGTH, replacement: '***' });
    redactors.set(secrets, redactor);
  }
  return redactor.redactString(text);
}
