/** What replaces a secret in anything the inspector records or sends. */
export const REDACTED = '[redacted]';

/** Keys whose values are secrets whatever they hold (compared lower-case, `-` and `_` ignored). */
const SECRET_KEYS = new Set([
  'apikey',
  'xapikey',
  'authorization',
  'proxyauthorization',
  'password',
  'passwd',
  'secret',
  'clientsecret',
  'accesstoken',
  'refreshtoken',
  'authtoken',
  'idtoken',
  'sessiontoken',
  'bearertoken',
  'cookie',
  'setcookie',
  'privatekey',
]);

/** Shapes of well-known credentials: Anthropic/OpenAI keys, bearer tokens, GitHub, AWS, Slack, PEM keys. */
const SECRET_PATTERNS: readonly RegExp[] = [
  /\bsk-(?:ant-)?[A-Za-z0-9_-]{16,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{16,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
];

/** Removes secrets from values before they are recorded or sent to an inspector. */
export interface Redactor {
  /** True when a property of this name holds a secret (`apiKey`, `authorization`, `password`, ...). */
  isSecretKey(key: string): boolean;
  /** The string with every known secret and every credential-shaped token replaced by `[redacted]`. */
  redactString(text: string): string;
}

/** Options of {@link createRedactor}. */
export interface RedactorOptions {
  /**
   * Exact secret values to remove wherever they appear (e.g. the value of `ANTHROPIC_API_KEY`).
   * Values shorter than 8 characters are ignored: redacting them would garble ordinary text.
   */
  secrets?: readonly (string | undefined)[];
}

/**
 * Creates the redactor every recorder and inspector bridge of this package uses. Secrets are
 * recognised by property name, by exact value (`secrets`) and by the shape of well-known credentials.
 */
export function createRedactor(options: RedactorOptions = {}): Redactor {
  const exact = [
    ...new Set((options.secrets ?? []).filter((value): value is string => !!value && value.length >= 8)),
  ].sort((a, b) => b.length - a.length);
  return {
    isSecretKey: (key) => SECRET_KEYS.has(key.toLowerCase().replace(/[-_]/g, '')),
    redactString(text) {
      let out = text;
      for (const secret of exact) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
      for (const pattern of SECRET_PATTERNS) {
        pattern.lastIndex = 0;
        if (pattern.test(out)) out = out.replace(pattern, REDACTED);
      }
      return out;
    },
  };
}
