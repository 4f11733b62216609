// What a secret looks like when troupe does not know its value: the names of fields and
// variables that hold one, and the shapes of well-known credentials.

/** Property names whose values are secrets whatever they hold (compared lower-case, `-` and `_` ignored). */
export const SECRET_KEYS: ReadonlySet<string> = new Set([
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

/**
 * Shapes of well-known credentials, replaced whole: Anthropic/OpenAI keys, bearer tokens, GitHub, AWS, Slack.
 * PEM private keys are found by `redactPrivateKeys` (a pattern for them backtracks on hostile text).
 */
export const SECRET_PATTERNS: readonly RegExp[] = [
  /\bsk-(?:ant-)?[A-Za-z0-9_-]{16,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{16,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
];

/**
 * The password of a URL's user info: `postgres://user:PASSWORD@host/db`, any scheme
 * (`mysql://`, `mongodb+srv://`, `redis://:PASSWORD@`, `amqp://`, `https://`). The password runs
 * to the last `@` before a space or a `/`, as a URL parser reads it, so an unescaped `@` in it is
 * covered (at worst the host goes too). Groups: `://` and the user (kept), the password (replaced).
 * (Matching from `://` rather than the scheme keeps it linear on long text.)
 */
export const URL_PASSWORD = /(:\/\/[^\s:/?#@]*):([^\s/?#]+)@/g;

/**
 * An assignment with an upper-case name, as `env`, a `.env` file or a shell prints it:
 * `AWS_SECRET_ACCESS_KEY=...`, `DB_PASSWORD: ...`, `GH_TOKEN="..."`. Groups: the name, the
 * separator with any opening quote, the value. Only names that {@link SECRET_NAME} accepts are
 * secrets. (The name is matched plainly and checked afterwards: a pattern with the keywords
 * inside the name backtracks quadratically on text like `PASSWORDPASSWORD…`.)
 */
export const ASSIGNMENT = /\b([A-Z0-9_]+)(\s*[=:]\s*["']?)([^\s"']{4,})/g;

/** Upper-case names that hold a secret: PASSWORD, SECRET, TOKEN, API_KEY, ... (`MAX_TOKENS` is not one). */
export const SECRET_NAME = /PASSWORD|PASSWD|SECRET|TOKEN(?!S)|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL/;

/** The same in lower case, for the usual field names only (`password: ...`, `api_key=...`). */
export const SECRET_FIELD_ASSIGNMENT =
  /\b((?:password|passwd|secret|client_secret|api_key|apikey|access_token|refresh_token|auth_token)\s*[=:]\s*["']?)([^\s"']{4,})/gi;

/** Lower-case substrings one of which {@link SECRET_FIELD_ASSIGNMENT} needs. */
export const SECRET_FIELD_HINTS: readonly string[] = ['passw', 'secret', 'api_key', 'apikey', '_token'];
