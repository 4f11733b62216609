import Anthropic from '@anthropic-ai/sdk';
import {
  type GenerateOptions,
  type ModelAdapter,
  ModelError,
  type ModelRequest,
  type ModelResponse,
} from '@troupe/core';
import { abortError, createRedactor } from '@troupe/core/internal';

import { classifyError } from './classify-error.js';
import { type ModelTable, resolveModelId } from './model-aliases.js';
import { toModelError } from './model-error.js';
import type { AnthropicModelOptions } from './options.js';
import { backoffDelay, sleep as realSleep, retryAfterMs } from './retry-policy.js';
import { type Credential, defaultEnv, resolveCredential, resolveSettings } from './settings.js';
import { streamOnce } from './stream-call.js';
import { toRequestParams } from './to-anthropic.js';

/** The Anthropic adapter: a `ModelAdapter` plus its alias table. Holds no credential in its properties. */
export interface AnthropicModel extends ModelAdapter {
  readonly name: 'anthropic';
  /** The resolved alias table (ids, no secrets). */
  readonly models: Readonly<ModelTable>;
  /** The concrete id for an alias or id (`inherit` and empty mean `default`). */
  resolveModel(name?: string): string;
}

function createClient(
  credential: Credential,
  options: AnthropicModelOptions,
  baseURL: string,
  timeout: number,
) {
  // Every value is passed explicitly so the SDK reads no credential or URL from the environment itself.
  return new Anthropic({
    apiKey: credential.kind === 'apiKey' ? credential.value : null,
    authToken: credential.kind === 'authToken' ? credential.value : null,
    baseURL,
    timeout,
    maxRetries: 0,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.defaultHeaders ? { defaultHeaders: options.defaultHeaders } : {}),
    ...(options.dangerouslyAllowBrowser ? { dangerouslyAllowBrowser: true } : {}),
  });
}

/**
 * Creates a `ModelAdapter` over the Anthropic Messages API (`@anthropic-ai/sdk`). Each `generate`
 * streams one turn, reports deltas to `onDelta`, retries 429 / 529 / 5xx / dropped connections
 * with backoff (honouring `retry-after`), and aborts at once with `signal`.
 *
 * Throws a `ModelError` `MODEL_NOT_CONFIGURED` when no key is given or found in `ANTHROPIC_API_KEY`
 * (or `ANTHROPIC_AUTH_TOKEN`), and a `ValidationError` naming any bad option. `generate` rejects
 * with a `ModelError` whose code says what failed (`MODEL_RATE_LIMITED`, `MODEL_OVERLOADED`,
 * `MODEL_AUTH`, `MODEL_INVALID_REQUEST`, `MODEL_CONNECTION`, `MODEL_ERROR`), or, when aborted, with
 * an error named `AbortError` (code `ABORTED`).
 */
export function createAnthropicModel(options: AnthropicModelOptions = {}): AnthropicModel {
  const env = options.env ?? defaultEnv();
  const credential = resolveCredential(options, env);
  const settings = resolveSettings(options, env);
  const client = createClient(credential, options, settings.baseURL, settings.timeoutMs);
  // Core's redactor: the key in any encoding, and credential-shaped text, never reach an error
  // message (a key shorter than 8 characters is left alone: it would garble every message).
  const redactor = createRedactor({ secrets: [credential.value] });
  const redact = (text: string) => redactor.redactString(text);
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const models = Object.freeze({ ...settings.models });
  const resolveModel = (name?: string) => resolveModelId(name, models);

  async function generate(
    request: ModelRequest,
    signal: AbortSignal,
    generateOptions: GenerateOptions = {},
  ): Promise<ModelResponse> {
    if (signal.aborted) throw abortError(signal.reason);
    const model = resolveModel(request.model);
    const params = toRequestParams(request, {
      model,
      defaultMaxTokens: settings.maxTokens,
      cache: settings.cache,
      thinkingBudget: thinkingBudgetOf(request, settings.thinkingBudget),
    });
    if (params.messages.length === 0)
      throw new ModelError(
        'MODEL_INVALID_REQUEST',
        `The model request${request.taskId ? ` of task ${request.taskId}` : ''} has no non-empty message; the Anthropic API needs at least one user message.`,
      );
    for (let attempt = 1; ; attempt++) {
      try {
        return await streamOnce(client, params, signal, generateOptions.onDelta);
      } catch (error) {
        const failure = classifyError(error, signal.aborted);
        if (failure === 'aborted') throw abortError(signal.reason);
        const context = { model, baseURL: settings.baseURL, attempts: attempt, redact };
        if (!failure.retryable || attempt > settings.maxRetries) throw toModelError(failure, context, error);
        const asked = retryAfterMs(failure.headers, now);
        if (asked !== undefined && asked > settings.maxRetryAfterMs) {
          const note = `The API asked to wait ${Math.ceil(asked / 1000)} s, more than maxRetryAfterMs (${settings.maxRetryAfterMs} ms).`;
          throw toModelError(failure, { ...context, note }, error);
        }
        const delayMs = asked ?? backoffDelay(attempt, settings, random);
        options.onRetry?.({
          retry: attempt,
          delayMs,
          error: toModelError(failure, { ...context, retrying: true }, error),
        });
        await sleep(delayMs, signal);
        if (signal.aborted) throw abortError(signal.reason);
      }
    }
  }

  const adapter: AnthropicModel = { name: 'anthropic', models, resolveModel, generate };
  return Object.freeze(adapter);
}

/**
 * The request's thinking budget (an agent's `effort`) when it is a whole number of at least 1,024
 * tokens (the API's minimum), else the model's configured one.
 */
function thinkingBudgetOf(request: ModelRequest, configured: number | undefined): number | undefined {
  const asked = request.thinking?.budgetTokens;
  return typeof asked === 'number' && Number.isInteger(asked) && asked >= 1024 ? asked : configured;
}
