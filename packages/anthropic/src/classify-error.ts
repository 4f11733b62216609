import { AnthropicError, APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type { ModelErrorCode } from '@troupe/core';

/** What went wrong with one attempt, in the adapter's terms. */
export interface Failure {
  code: ModelErrorCode;
  retryable: boolean;
  /** HTTP status, when the API answered with one. */
  status?: number;
  /** The API's `error.type`, e.g. `overloaded_error`. */
  errorType?: string;
  /** The API's `error.message`, or the transport's message. */
  detail: string;
  requestId?: string;
  headers?: Headers;
}

const TYPE_CODES: Record<string, { code: ModelErrorCode; retryable: boolean }> = {
  rate_limit_error: { code: 'MODEL_RATE_LIMITED', retryable: true },
  overloaded_error: { code: 'MODEL_OVERLOADED', retryable: true },
  api_error: { code: 'MODEL_ERROR', retryable: true },
  timeout_error: { code: 'MODEL_CONNECTION', retryable: true },
  authentication_error: { code: 'MODEL_AUTH', retryable: false },
  permission_error: { code: 'MODEL_AUTH', retryable: false },
  billing_error: { code: 'MODEL_AUTH', retryable: false },
  invalid_request_error: { code: 'MODEL_INVALID_REQUEST', retryable: false },
  not_found_error: { code: 'MODEL_INVALID_REQUEST', retryable: false },
  request_too_large: { code: 'MODEL_INVALID_REQUEST', retryable: false },
};

// What the SDK's MessageStream says when the body ends early (the server closed the connection).
const CUT_STREAM =
  /terminated|stream ended without producing|request ended without sending|other side closed|socket/i;

function byStatus(status: number): { code: ModelErrorCode; retryable: boolean } {
  if (status === 429) return { code: 'MODEL_RATE_LIMITED', retryable: true };
  if (status === 529) return { code: 'MODEL_OVERLOADED', retryable: true };
  if (status === 401 || status === 403 || status === 402) return { code: 'MODEL_AUTH', retryable: false };
  if (status === 408) return { code: 'MODEL_CONNECTION', retryable: true };
  if (status === 409 || status >= 500) return { code: 'MODEL_ERROR', retryable: true };
  if (status >= 400) return { code: 'MODEL_INVALID_REQUEST', retryable: false };
  return { code: 'MODEL_ERROR', retryable: false };
}

function causeMessage(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  const inner =
    cause instanceof Error ? ((cause as { cause?: unknown }).cause as Error | undefined) : undefined;
  const parts = [error.message, cause instanceof Error ? cause.message : undefined, inner?.message]
    .concat(inner && 'code' in inner ? String((inner as { code: unknown }).code) : [])
    .filter((part): part is string => Boolean(part))
    // "Connection error." + "fetch failed" reads "Connection error: fetch failed", not "error.: fetch".
    .map((part) => part.replace(/[.\s]+$/, ''));
  return [...new Set(parts)].join(': ');
}

/**
 * Classifies what one attempt threw: HTTP errors by status (429, 529, 4xx, 5xx), mid-stream `error`
 * events by the API's error type, transport failures and cut streams as connection errors. An
 * SDK abort that the caller did not ask for (`callerAborted` false) is the SDK's timeout.
 */
export function classifyError(error: unknown, callerAborted: boolean): Failure | 'aborted' {
  if (callerAborted) return 'aborted';
  if (error instanceof APIUserAbortError)
    return { code: 'MODEL_CONNECTION', retryable: true, detail: 'the request timed out' };
  if (error instanceof APIConnectionError)
    return { code: 'MODEL_CONNECTION', retryable: true, detail: causeMessage(error) };
  if (error instanceof APIError) {
    const failure: Failure = {
      code: 'MODEL_ERROR',
      retryable: true,
      detail: error.apiMessage ?? error.message,
    };
    const mapped =
      error.status !== undefined
        ? byStatus(error.status)
        : (TYPE_CODES[error.type ?? ''] ?? TYPE_CODES.api_error!);
    failure.code = mapped.code;
    failure.retryable = mapped.retryable;
    if (error.status !== undefined) failure.status = error.status;
    if (error.type) failure.errorType = error.type;
    if (error.requestID) failure.requestId = error.requestID;
    if (error.headers) {
      failure.headers = error.headers;
      if (
        error.status !== undefined &&
        error.status >= 500 &&
        error.headers.get('x-should-retry') === 'false'
      )
        failure.retryable = false;
    }
    return failure;
  }
  if (error instanceof AnthropicError || error instanceof TypeError) {
    const detail = causeMessage(error);
    if (CUT_STREAM.test(detail) || (error as { cause?: unknown }).cause instanceof TypeError)
      return {
        code: 'MODEL_CONNECTION',
        retryable: true,
        detail: `the connection closed mid-response (${detail})`,
      };
    return { code: 'MODEL_ERROR', retryable: false, detail };
  }
  return {
    code: 'MODEL_ERROR',
    retryable: false,
    detail: error instanceof Error ? error.message : String(error),
  };
}
