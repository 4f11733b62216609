import { EXIT } from './exit-codes.js';

/**
 * An error the user can cause and fix (a bad flag, a missing key, a broken config file). The CLI
 * prints its message as one line and exits with `exitCode`; the stack is shown only with --debug.
 */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number = EXIT.error, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = exitCode;
  }
}

/** A mistake on the command line: exit code 2. */
export class UsageError extends CliError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, EXIT.usage, options);
  }
}

/** Error codes of @troupe/core that mean "the user asked for something that does not exist". */
const USAGE_CODES = new Set(['DEFINITION_NOT_FOUND', 'TASK_NOT_FOUND', 'INPUT_SCHEMA_FAILED']);

/**
 * The one line and exit code for anything thrown by a command. Troupe errors (matched by their
 * stable `code`, without importing core) and CLI errors keep their message; anything else is an
 * unexpected failure and says how to see the details.
 */
export function describeError(error: unknown): { message: string; exitCode: number; expected: boolean } {
  if (error instanceof CliError) return { message: error.message, exitCode: error.exitCode, expected: true };
  const code = (error as { code?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  if (
    error instanceof Error &&
    typeof code === 'string' &&
    /Error$/.test(String(name)) &&
    isTroupeCode(code)
  ) {
    return {
      message: oneLine(error.message),
      exitCode: USAGE_CODES.has(code) ? EXIT.usage : EXIT.error,
      expected: true,
    };
  }
  if (
    error instanceof Error &&
    (code === 'EACCES' || code === 'EPERM' || code === 'ENOENT' || code === 'EISDIR')
  ) {
    return { message: oneLine(error.message), exitCode: EXIT.error, expected: true };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    message: `Unexpected error: ${oneLine(message)} (run again with --debug to see the details).`,
    exitCode: EXIT.error,
    expected: false,
  };
}

function isTroupeCode(code: string): boolean {
  return /^(DEFINITION|VALIDATION|INPUT|OUTPUT|TASK|APPROVAL|LIMIT|MODEL|TOOL|PERSISTENCE|RUNTIME|ABORTED)/.test(
    code,
  );
}

/** Collapses a message to its first line. */
function oneLine(message: string): string {
  const first = message.split(/\r?\n/).find((line) => line.trim() !== '') ?? message;
  return first.trim();
}

/** Writes the error as `troupe: message` (plus the stack with `debug`) and returns the exit code. */
export function reportError(
  error: unknown,
  stderr: { write(text: string): unknown },
  debug: boolean,
): number {
  const { message, exitCode } = describeError(error);
  stderr.write(`troupe: ${message}\n`);
  if (debug) {
    const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
    stderr.write(`${stack}\n`);
    let cause = error instanceof Error ? error.cause : undefined;
    while (cause !== undefined) {
      stderr.write(`Caused by: ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}\n`);
      cause = cause instanceof Error ? cause.cause : undefined;
    }
  }
  return exitCode;
}
