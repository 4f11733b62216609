import { redactPrivateKeys } from './private-keys.js';
import { encodedForms } from './secret-encodings.js';
import {
  ASSIGNMENT,
  SECRET_FIELD_ASSIGNMENT,
  SECRET_FIELD_HINTS,
  SECRET_KEYS,
  SECRET_NAME,
  SECRET_PATTERNS,
  URL_PASSWORD,
} from './secret-shapes.js';

/** What replaces a secret in anything troupe records, shows or sends. */
export const REDACTED = '[redacted]';

/** Removes secrets from values before they are recorded, shown or sent to an inspector. */
export interface Redactor {
  /** True when a property of this name holds a secret (`apiKey`, `authorization`, `password`, ...). */
  isSecretKey(key: string): boolean;
  /** The string with every known secret (in any encoding) and every credential-shaped token replaced. */
  redactString(text: string): string;
}

/** Options of {@link createRedactor}. */
export interface RedactorOptions {
  /**
   * Exact secret values to remove wherever they appear (e.g. the value of `ANTHROPIC_API_KEY`),
   * also when base64, base64url, URL-encoded or hex-encoded. Values shorter than
   * `minimumSecretLength` are ignored: redacting them would garble ordinary text.
   */
  secrets?: readonly (string | undefined)[];
  /** Shortest value of `secrets` that is redacted (default 8). */
  minimumSecretLength?: number;
  /** What a secret is replaced with (default {@link REDACTED}). */
  replacement?: string;
}

/**
 * Creates a redactor: troupe's one home for redaction (the inspector's recorder and bridges, MCP
 * error messages). Secrets are recognised by property name; by exact value (`secrets`) and that
 * value's encodings; by the shape of well-known credentials; as the password of any
 * `scheme://user:password@host` URL (`DATABASE_URL`); and as the value of an assignment whose
 * name says secret (`AWS_SECRET_ACCESS_KEY=...`).
 */
export function createRedactor(options: RedactorOptions = {}): Redactor {
  const minimum = options.minimumSecretLength ?? 8;
  const replacement = options.replacement ?? REDACTED;
  const known = [
    ...new Set(
      (options.secrets ?? []).filter((value): value is string => !!value && value.length >= minimum),
    ),
  ];
  // Longest first, so a secret that contains another is replaced whole.
  const exact = [...new Set([...known, ...known.flatMap((secret) => encodedForms(secret, minimum))])].sort(
    (a, b) => b.length - a.length,
  );
  return {
    isSecretKey: (key) => SECRET_KEYS.has(key.toLowerCase().replace(/[-_]/g, '')),
    redactString(text) {
      let out = text;
      for (const secret of exact) if (out.includes(secret)) out = out.split(secret).join(replacement);
      for (const pattern of SECRET_PATTERNS) {
        pattern.lastIndex = 0;
        if (pattern.test(out)) out = out.replace(pattern, replacement);
      }
      out = redactPrivateKeys(out, replacement);
      if (out.includes('://') && out.includes('@')) {
        out = out.replace(URL_PASSWORD, (_match, user: string) => `${user}:${replacement}@`);
      }
      if (SECRET_NAME.test(out)) {
        out = out.replace(ASSIGNMENT, (match, name: string, separator: string, value: string) =>
          SECRET_NAME.test(name) && !value.startsWith(replacement)
            ? `${name}${separator}${replacement}`
            : match,
        );
      }
      const lower = out.toLowerCase();
      if (SECRET_FIELD_HINTS.some((hint) => lower.includes(hint))) {
        out = out.replace(SECRET_FIELD_ASSIGNMENT, (match, name: string, value: string) =>
          value.startsWith(replacement) ? match : `${name}${replacement}`,
        );
      }
      return out;
    },
  };
}
