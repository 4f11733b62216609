import { ModelError, ValidationError } from '@troupe/core';
import { type ModelTable, resolveModelTable } from './model-aliases.js';
import type { AnthropicModelOptions, CacheOptions } from './options.js';

/** The API endpoint used when neither the options nor the environment name one. */
export const DEFAULT_BASE_URL = 'https://api.anthropic.com';

/** A credential and how the SDK must send it. Lives only inside the adapter's closure. */
export interface Credential {
  kind: 'apiKey' | 'authToken';
  value: string;
}

/** Options after defaults and environment fallbacks, minus the credential. */
export interface Settings {
  baseURL: string;
  models: ModelTable;
  maxTokens: number;
  maxRetries: number;
  initialRetryDelayMs: number;
  maxRetryDelayMs: number;
  maxRetryAfterMs: number;
  timeoutMs: number;
  cache: Required<CacheOptions>;
  thinkingBudget: number | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

/** `process.env` when the platform has one; `{}` elsewhere (browsers, workers). */
export function defaultEnv(): Env {
  const host = globalThis as { process?: { env?: Env } };
  return host.process?.env ?? {};
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function integer(value: number | undefined, name: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min)
    throw new ValidationError(`createAnthropicModel: ${name} must be an integer >= ${min}.`, [
      `${name}: expected an integer >= ${min}, got ${String(value)}`,
    ]);
  return value;
}

/** The message of a missing credential: how to set one, and how to work without one. */
export const MISSING_KEY_MESSAGE =
  'No Anthropic API key found. Set the ANTHROPIC_API_KEY environment variable (or pass `apiKey` to ' +
  'createAnthropicModel; ANTHROPIC_AUTH_TOKEN / `authToken` work for bearer tokens). To run offline ' +
  'without a key, use `troupe demo` or `scriptedModel` from @troupe/core/testing.';

/** Picks the credential: `apiKey`, then `authToken`, then `ANTHROPIC_API_KEY`, then `ANTHROPIC_AUTH_TOKEN`. */
export function resolveCredential(options: AnthropicModelOptions, env: Env): Credential {
  const apiKey = nonEmpty(options.apiKey);
  if (apiKey) return { kind: 'apiKey', value: apiKey };
  const authToken = nonEmpty(options.authToken);
  if (authToken) return { kind: 'authToken', value: authToken };
  const envKey = nonEmpty(env.ANTHROPIC_API_KEY);
  if (envKey) return { kind: 'apiKey', value: envKey };
  const envToken = nonEmpty(env.ANTHROPIC_AUTH_TOKEN);
  if (envToken) return { kind: 'authToken', value: envToken };
  throw new ModelError('MODEL_NOT_CONFIGURED', MISSING_KEY_MESSAGE, { isRetryable: false });
}

function resolveCache(cache: AnthropicModelOptions['cache']): Required<CacheOptions> {
  if (cache === false) return { system: false, tools: false, messages: false };
  const given = cache === true || cache === undefined ? {} : cache;
  return { system: given.system ?? true, tools: given.tools ?? true, messages: given.messages ?? true };
}

/** Applies defaults and environment fallbacks; throws a `ValidationError` naming a bad option. */
export function resolveSettings(options: AnthropicModelOptions, env: Env): Settings {
  const baseURL = nonEmpty(options.baseURL) ?? nonEmpty(env.ANTHROPIC_BASE_URL) ?? DEFAULT_BASE_URL;
  if (!/^https?:\/\//i.test(baseURL))
    throw new ValidationError(`createAnthropicModel: baseURL must be an http(s) URL, got "${baseURL}".`, [
      'baseURL: expected an http:// or https:// URL (from the option or ANTHROPIC_BASE_URL)',
    ]);
  const thinking = options.thinking;
  return {
    baseURL: baseURL.replace(/\/+$/, ''),
    models: resolveModelTable(options.models),
    maxTokens: integer(options.maxTokens, 'maxTokens', 8192, 1),
    maxRetries: integer(options.maxRetries, 'maxRetries', 4, 0),
    initialRetryDelayMs: integer(options.initialRetryDelayMs, 'initialRetryDelayMs', 500, 0),
    maxRetryDelayMs: integer(options.maxRetryDelayMs, 'maxRetryDelayMs', 8000, 0),
    maxRetryAfterMs: integer(options.maxRetryAfterMs, 'maxRetryAfterMs', 60_000, 0),
    timeoutMs: integer(options.timeoutMs, 'timeoutMs', 600_000, 1),
    cache: resolveCache(options.cache),
    thinkingBudget:
      thinking === undefined ? undefined : integer(thinking.budgetTokens, 'thinking.budgetTokens', 0, 1024),
  };
}
