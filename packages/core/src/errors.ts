/**
 * Stable error codes. A code never changes meaning once released; hosts may switch on it.
 */
export type TroupeErrorCode =
  | 'DEFINITION_INVALID'
  | 'DEFINITION_NOT_FOUND'
  | 'VALIDATION_FAILED'
  | 'INPUT_SCHEMA_FAILED'
  | 'OUTPUT_SCHEMA_FAILED'
  | 'TASK_NOT_FOUND'
  | 'TASK_ENDED'
  | 'APPROVAL_NOT_FOUND'
  | 'LIMIT_EXCEEDED'
  | 'MODEL_ERROR'
  | 'MODEL_RATE_LIMITED'
  | 'MODEL_OVERLOADED'
  | 'MODEL_AUTH'
  | 'MODEL_INVALID_REQUEST'
  | 'MODEL_CONNECTION'
  | 'MODEL_NOT_CONFIGURED'
  | 'MODEL_RESPONSE_INVALID'
  | 'TOOL_NOT_FOUND'
  | 'TOOL_INPUT_INVALID'
  | 'TOOL_FAILED'
  | 'TOOL_DENIED'
  | 'TOOL_INTERRUPTED'
  | 'TOOL_DEFINITION_INVALID'
  | 'PERSISTENCE_FAILED'
  | 'PERSISTENCE_CORRUPT'
  | 'PERSISTENCE_VERSION'
  | 'RUNTIME_STOPPED'
  | 'ABORTED';

export interface TroupeErrorOptions {
  cause?: unknown;
  /** Structured details a host may render or log; never secrets. */
  details?: Record<string, unknown>;
}

/** Base class of every error troupe raises or reports. `code` is stable; `message` is for people. */
export class TroupeError extends Error {
  readonly code: TroupeErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: TroupeErrorCode, message: string, options: TroupeErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details ?? {};
  }

  /** A plain, JSON-safe form for results and persisted records (no stack). */
  toJSON(): SerializedError {
    return { name: this.name, code: this.code, message: this.message, details: this.details };
  }
}

/** The JSON form of an error as it appears on results and in the store. */
export interface SerializedError {
  name: string;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** An agent definition that cannot be used: names the file, line and field where known. */
export class DefinitionError extends TroupeError {
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly field: string | undefined;
  constructor(
    message: string,
    where: { file?: string; line?: number; field?: string; code?: TroupeErrorCode } = {},
    options: TroupeErrorOptions = {},
  ) {
    super(where.code ?? 'DEFINITION_INVALID', message, {
      ...options,
      details: { ...options.details, file: where.file, line: where.line, field: where.field },
    });
    this.file = where.file;
    this.line = where.line;
    this.field = where.field;
  }
}

/** A value that failed validation at a trust boundary (spawn options, task input, tool input). */
export class ValidationError extends TroupeError {
  readonly issues: string[];
  constructor(
    message: string,
    issues: string[] = [],
    options: TroupeErrorOptions & { code?: TroupeErrorCode } = {},
  ) {
    super(options.code ?? 'VALIDATION_FAILED', message, {
      ...options,
      details: { ...options.details, issues },
    });
    this.issues = issues;
  }
}

/** A limit that was hit (turns, tokens, time, depth). */
export class LimitError extends TroupeError {
  constructor(message: string, options: TroupeErrorOptions = {}) {
    super('LIMIT_EXCEEDED', message, options);
  }
}

/** A model call that failed. `isRetryable` says whether trying again could help. */
export class ModelError extends TroupeError {
  readonly status: number | undefined;
  readonly isRetryable: boolean;
  constructor(
    code: TroupeErrorCode,
    message: string,
    options: TroupeErrorOptions & { status?: number; isRetryable?: boolean } = {},
  ) {
    super(code, message, { ...options, details: { ...options.details, status: options.status } });
    this.status = options.status;
    this.isRetryable = options.isRetryable ?? false;
  }
}

/** A tool that could not run, was denied, or failed. */
export class ToolError extends TroupeError {
  readonly toolName: string;
  constructor(code: TroupeErrorCode, toolName: string, message: string, options: TroupeErrorOptions = {}) {
    super(code, message, { ...options, details: { ...options.details, toolName } });
    this.toolName = toolName;
  }
}

/** The store failed, or holds a document that cannot be read. */
export class PersistenceError extends TroupeError {
  readonly path: string | undefined;
  constructor(
    code: 'PERSISTENCE_FAILED' | 'PERSISTENCE_CORRUPT' | 'PERSISTENCE_VERSION',
    message: string,
    options: TroupeErrorOptions & { path?: string } = {},
  ) {
    super(code, message, { ...options, details: { ...options.details, path: options.path } });
    this.path = options.path;
  }
}

/** Turns anything thrown into a JSON-safe error record (never a stack). */
export function serializeError(error: unknown): SerializedError {
  if (error instanceof TroupeError) return error.toJSON();
  if (error instanceof Error) return { name: error.name, code: 'UNKNOWN', message: error.message };
  return { name: 'Error', code: 'UNKNOWN', message: String(error) };
}
