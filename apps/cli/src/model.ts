import type { RetryEvent } from '@troupe/anthropic';
import type { ModelAdapter, ModelConfig } from '@troupe/core';
import type { CliOptions } from './arguments.js';
import type { CliConfig } from './config.js';
import { CliError } from './errors.js';

/** The message shown when no key is set: how to set one, and how to try troupe without one. */
const NO_KEY_MESSAGE =
  'No Anthropic API key: set ANTHROPIC_API_KEY (e.g. `export ANTHROPIC_API_KEY=sk-ant-...`) to use Claude, ' +
  'or run `troupe demo` to try troupe offline.';

/** Which models to use: flags win over the config file; unset ones take the adapter's defaults. */
export interface ModelChoice {
  default?: string;
  small?: string;
  plan?: string;
  /** Extended thinking budget in tokens; off when unset. */
  thinking?: number;
}

/** The model choice from `--model`, `--small-model`, `--plan-model` and the config file. */
export function modelChoice(options: CliOptions, config: CliConfig): ModelChoice {
  const choice: ModelChoice = {};
  const main = options.model ?? config.model;
  const small = options.smallModel ?? config.smallModel;
  const plan = options.planModel ?? config.planModel;
  if (main) choice.default = main;
  if (small) choice.small = small;
  if (plan) choice.plan = plan;
  const thinking = options.thinking ?? config.thinking;
  if (thinking !== undefined) choice.thinking = thinking;
  return choice;
}

/**
 * Claude through `@troupe/anthropic` (loaded on demand). Throws {@link CliError} with
 * {@link NO_KEY_MESSAGE} when neither ANTHROPIC_API_KEY nor ANTHROPIC_AUTH_TOKEN is set.
 */
export async function createClaudeModel(
  env: Readonly<Record<string, string | undefined>>,
  choice: ModelChoice,
  hooks: { onRetry?: (notice: string) => void } = {},
): Promise<{ model: ModelAdapter; models: ModelConfig }> {
  if (!env.ANTHROPIC_API_KEY?.trim() && !env.ANTHROPIC_AUTH_TOKEN?.trim()) throw new CliError(NO_KEY_MESSAGE);
  const baseURL = env.ANTHROPIC_BASE_URL?.trim();
  if (baseURL && !/^https?:\/\/[^/\s]/i.test(baseURL))
    throw new CliError(
      `ANTHROPIC_BASE_URL must be an http:// or https:// URL, not "${baseURL}" (unset it to use https://api.anthropic.com).`,
    );
  const { createAnthropicModel } = await import('@troupe/anthropic');
  const onRetry = hooks.onRetry;
  const { thinking, ...models } = choice;
  const model = createAnthropicModel({
    env,
    models,
    ...(thinking !== undefined ? { thinking: { budgetTokens: thinking } } : {}),
    ...(onRetry ? { onRetry: (event: RetryEvent) => onRetry(retryNotice(event)) } : {}),
  });
  return { model, models: { ...model.models } };
}

/** The adapter's default number of retries after the first try (so "attempt 2/5"). */
const MAX_RETRIES = 4;

/**
 * A visible line for a model call about to be retried:
 * `Anthropic API rate limit reached (HTTP 429): retrying in 2s (429, attempt 2/5)`.
 */
export function retryNotice(event: RetryEvent): string {
  const what = event.error.message.split(':')[0] ?? 'The model call failed';
  const why = event.error.status ?? event.error.code ?? 'error';
  const wait = event.delayMs >= 1000 ? `${Math.round(event.delayMs / 1000)}s` : `${event.delayMs}ms`;
  return `${what}: retrying in ${wait} (${why}, attempt ${event.retry + 1}/${MAX_RETRIES + 1})`;
}
