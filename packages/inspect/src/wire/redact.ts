// Redaction lives in @troupe/core (one home, also used by @troupe/mcp); the inspector's recorder,
// bridges and replays use it from here, and this package's public API re-exports it.
export { createRedactor, REDACTED, type Redactor, type RedactorOptions } from '@troupe/core/internal';
