/**
 * Stable error codes. A code never changes meaning once released; hosts may switch on it.
 */
export type TroupeErrorCode =
  | 'DEFINITION_INVALID'
  | 'DEFINITION_NOT_FOUND'
  | 'AGENT_NOT_ALLOWED'
  | 'VALIDATION_FAILED'
  | 'INPUT_SCHEMA_FAILED'
  | 'OUTPUT_SCHEMA_FAILED'
  | 'TASK_NOT_FOUND'
  | 'TASK_ENDED'
  | 'TASK_RUNNING'
  | 'TASK_AMBIGUOUS'
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
  | 'PERSISTENCE_LOCKED'
  | 'PERSISTENCE_LOCK_TAKEN'
  | 'RUNTIME_STOPPED'
  | 'WORKSPACE_UNAVAILABLE'
  | 'ABORTED'
  | 'HOOK_STOPPED';

/** The codes of model errors. */
export type ModelErrorCode = Extract<TroupeErrorCode, `MODEL_${string}`> | 'ABORTED';
/** The codes of tool errors. */
export type ToolErrorCode = Extract<TroupeErrorCode, `TOOL_${string}`> | 'ABORTED';
/** The codes of definition errors. */
export type DefinitionErrorCode = Extract<TroupeErrorCode, `DEFINITION_${string}`>;
/** The codes of validation errors. */
export type ValidationErrorCode = 'VALIDATION_FAILED' | 'INPUT_SCHEMA_FAILED' | 'OUTPUT_SCHEMA_FAILED';
/** The codes of persistence errors. */
export type PersistenceErrorCode = Extract<TroupeErrorCode, `PERSISTENCE_${string}`>;

const brandOf = (kind: string): symbol => Symbol.for(`troupe.error.${kind}`);

/** Options of every troupe error's constructor. */
export interface TroupeErrorOptions {
  /** The error that caused this one (`error.cause`). */
  cause?: unknown;
  /** Structured details a host may render or log; never secrets. */
  details?: Record<string, unknown>;
}

/** Base class of every error troupe raises or reports. `code` is stable; `message` is for people. */
export class TroupeError extends Error {
  /** The kind this class brands its instances with (its name, kept through minification). */
  static readonly kind: string = 'TroupeError';
  readonly code: TroupeErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: TroupeErrorCode, message: string, options: TroupeErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details ?? {};
    // Brand with every kind up the chain, under `Symbol.for` keys: another copy of this package
    // (a second install, a bundle) recognises the error through `isInstance`.
    for (
      let type = new.target as typeof TroupeError;
      type && type !== (Error as unknown);
      type = Object.getPrototypeOf(type)
    ) {
      Object.defineProperty(this, brandOf(type.kind), { value: true, enumerable: false });
      if (type === TroupeError) break;
    }
  }

  /**
   * True when `value` is an error of this class, made by any copy of troupe (unlike
   * `instanceof`, which only knows this copy's classes). `ModelError.isInstance(error)`.
   */
  static isInstance<TError>(
    this: { readonly kind: string; readonly prototype: TError },
    value: unknown,
  ): value is TError {
    return (
      typeof value === 'object' &&
      value !== null &&
      // biome-ignore lint/complexity/noThisInStatic: each subclass checks its own brand
      (value as Record<symbol, unknown>)[brandOf(this.kind)] === true
    );
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
  static override readonly kind: string = 'DefinitionError';
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly field: string | undefined;
  constructor(
    message: string,
    where: { file?: string; line?: number; field?: string; code?: DefinitionErrorCode } = {},
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
  static override readonly kind: string = 'ValidationError';
  readonly issues: string[];
  constructor(
    message: string,
    issues: string[] = [],
    options: TroupeErrorOptions & { code?: ValidationErrorCode } = {},
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
  static override readonly kind: string = 'LimitError';
  constructor(message: string, options: TroupeErrorOptions = {}) {
    super('LIMIT_EXCEEDED', message, options);
  }
}

/** A model call that failed. `isRetryable` says whether trying again could help. */
export class ModelError extends TroupeError {
  static override readonly kind: string = 'ModelError';
  readonly status: number | undefined;
  readonly isRetryable: boolean;
  constructor(
    code: ModelErrorCode,
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
  static override readonly kind: string = 'ToolError';
  readonly toolName: string;
  constructor(code: ToolErrorCode, toolName: string, message: string, options: TroupeErrorOptions = {}) {
    super(code, message, { ...options, details: { ...options.details, toolName } });
    this.toolName = toolName;
  }
}

/** The store failed, or holds a document that cannot be read. */
export class PersistenceError extends TroupeError {
  static override readonly kind: string = 'PersistenceError';
  readonly path: string | undefined;
  constructor(
    code: PersistenceErrorCode,
    message: string,
    options: TroupeErrorOptions & { path?: string } = {},
  ) {
    super(code, message, { ...options, details: { ...options.details, path: options.path } });
    this.path = options.path;
  }
}

/** Turns anything thrown into a JSON-safe error record (never a stack). */
export function serializeError(error: unknown): SerializedError {
  if (TroupeError.isInstance(error)) return error.toJSON();
  if (error instanceof Error) return { name: error.name, code: 'UNKNOWN', message: error.message };
  return { name: 'Error', code: 'UNKNOWN', message: String(error) };
}
