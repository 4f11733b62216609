import { ModelError } from '@troupe/core';
import type { Failure } from './classify-error.js';

/** Where and how often the call was tried, for the error message. */
export interface FailureContext {
  model: string;
  baseURL: string;
  attempts: number;
  /** Set when the adapter stopped retrying for another reason than running out of tries. */
  note?: string;
  /** True for the error passed to `onRetry`: the call goes on. */
  retrying?: boolean;
  /** Removes secrets from any text that goes into the error. */
  redact: (text: string) => string;
}

function advice(failure: Failure, context: FailureContext): string {
  switch (failure.code) {
    case 'MODEL_RATE_LIMITED':
      return 'Wait a minute and try again, run fewer sub-agents at once (limits.maxConcurrent), or raise the rate limit of your Anthropic organization.';
    case 'MODEL_OVERLOADED':
      return 'The API is temporarily overloaded: try again in a few minutes, or use another model.';
    case 'MODEL_AUTH':
      return failure.status === 403
        ? `Check that the API key may use model "${context.model}" (workspace permissions).`
        : 'Check ANTHROPIC_API_KEY (or the apiKey / authToken option): the key is missing, wrong, revoked or out of credit.';
    case 'MODEL_INVALID_REQUEST':
      return failure.status === 404
        ? `Check the model id "${context.model}" and the base URL ${context.baseURL}.`
        : 'The API refused the request as built; the message above says which field. If it names the conversation, report it as a troupe bug.';
    case 'MODEL_CONNECTION':
      return `Check the network, any proxy, and the base URL ${context.baseURL} (ANTHROPIC_BASE_URL).`;
    default:
      return 'The API failed on its side: try again later.';
  }
}

function headline(failure: Failure): string {
  const http = failure.status !== undefined ? ` (HTTP ${failure.status})` : '';
  switch (failure.code) {
    case 'MODEL_RATE_LIMITED':
      return `Anthropic API rate limit reached${http}`;
    case 'MODEL_OVERLOADED':
      return `Anthropic API overloaded${http}`;
    case 'MODEL_AUTH':
      return `Anthropic API refused the credentials${http}`;
    case 'MODEL_INVALID_REQUEST':
      return `Anthropic API rejected the request${http}`;
    case 'MODEL_CONNECTION':
      return 'Could not complete the connection to the Anthropic API';
    default:
      return `Anthropic API error${http}`;
  }
}

/**
 * The `ModelError` for a failed call: what happened (status, the API's message), how many tries,
 * and what to do. `details` carry status, error type, request id, attempts and model; never the key.
 */
export function toModelError(failure: Failure, context: FailureContext, cause: unknown): ModelError {
  const plural = context.attempts === 1 ? 'attempt' : 'attempts';
  const tries = context.retrying
    ? `attempt ${context.attempts} failed, retrying`
    : `gave up after ${context.attempts} ${plural}`;
  const request = failure.requestId ? ` [request id ${failure.requestId}]` : '';
  const note = context.note ? ` ${context.note}` : '';
  const message = context.redact(
    `${headline(failure)}: ${failure.detail.replace(/[.\s]+$/, '')}${request}. Model "${context.model}", ${tries}.${note} ${advice(failure, context)}`,
  );
  const details: Record<string, unknown> = { model: context.model, attempts: context.attempts };
  if (failure.errorType) details.type = failure.errorType;
  if (failure.requestId) details.requestId = failure.requestId;
  const options: ConstructorParameters<typeof ModelError>[2] = {
    isRetryable: failure.retryable,
    details,
    cause,
  };
  if (failure.status !== undefined) options.status = failure.status;
  return new ModelError(failure.code, message, options);
}
