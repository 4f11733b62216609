/** HTTP status of each Messages API error type. */
export const ERROR_STATUS: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/** The API's error body: `{type: 'error', error: {type, message}, request_id}`. */
export function errorBody(type: string, message: string, requestId: string): Record<string, unknown> {
  return { type: 'error', error: { type, message }, request_id: requestId };
}

/** The error type the API uses for a status (for statuses scripted without one). */
export function errorTypeOf(status: number): string {
  for (const [type, code] of Object.entries(ERROR_STATUS)) if (code === status) return type;
  return status >= 500 ? 'api_error' : 'invalid_request_error';
}
