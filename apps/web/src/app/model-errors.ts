import type { SerializedError } from '@troupe/core';

/** A failed model call as the page tells it: what failed, why (the adapter's message), what to do. */
export interface ErrorView {
  /** A short headline: "Claude refused the API key", "Claude could not be reached", ... */
  title: string;
  /** The cause, as the model adapter worded it (status, the API's message, attempts). */
  cause: string;
  /** What the user can do in this app. */
  advice: string;
}

/** What to do in the web app, by the error's code (the adapter's advice speaks of environment variables). */
function adviceFor(code: string, baseURL: string): string {
  switch (code) {
    case 'MODEL_NOT_CONFIGURED':
      return 'Open Model settings and type an Anthropic API key, or set the base URL of a proxy of your own that adds the key.';
    case 'MODEL_AUTH':
      return 'Open Model settings and check the API key (missing, mistyped, revoked or out of credit), or the proxy that adds it.';
    case 'MODEL_RATE_LIMITED':
      return 'Wait a minute, then retry; fewer sub-agents at once also helps.';
    case 'MODEL_OVERLOADED':
      return 'The API is overloaded for now: retry in a few minutes.';
    case 'MODEL_CONNECTION':
      return `The browser could not reach ${baseURL}: the network is down, the name does not resolve, the proxy is not running, or it does not allow requests from this page (CORS). Check it, or the base URL in Model settings, then retry.`;
    case 'MODEL_INVALID_REQUEST':
      return 'The API refused the request: check the model and the base URL in Model settings.';
    default:
      return 'Retry; if it keeps failing, switch to the offline demo in Model settings.';
  }
}

function titleFor(code: string): string {
  switch (code) {
    case 'MODEL_NOT_CONFIGURED':
      return 'No API key: Claude cannot be asked';
    case 'MODEL_AUTH':
      return 'Claude refused the credentials';
    case 'MODEL_RATE_LIMITED':
      return 'Rate limit reached';
    case 'MODEL_OVERLOADED':
      return 'Claude is overloaded';
    case 'MODEL_CONNECTION':
      return 'Claude could not be reached';
    case 'MODEL_INVALID_REQUEST':
      return 'The request was refused';
    case 'ABORTED':
      return 'Stopped';
    default:
      return code.startsWith('MODEL_') ? 'The model call failed' : 'The run failed';
  }
}

/** How the page shows `error` (a task's or a reply's), with where model requests go (`baseURL`). */
export function describeError(error: Pick<SerializedError, 'code' | 'message'>, baseURL: string): ErrorView {
  return {
    title: titleFor(error.code),
    cause: causeOf(error.message),
    advice: adviceFor(error.code, baseURL),
  };
}

/**
 * The Anthropic adapter's message up to its tries (`… gave up after 3 attempts.`): what follows is
 * its advice for a terminal (environment variables), which the page replaces with its own.
 */
function causeOf(message: string): string {
  return (
    /^[\s\S]*?(?:gave up after \d+ attempts?|attempt \d+ failed, retrying)\./.exec(message)?.[0] ?? message
  );
}
