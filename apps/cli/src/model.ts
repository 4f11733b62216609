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
  return choice;
}

/**
 * Claude through `@troupe/anthropic` (loaded on demand). Throws {@link CliError} with
 * {@link NO_KEY_MESSAGE} when neither ANTHROPIC_API_KEY nor ANTHROPIC_AUTH_TOKEN is set.
 */
export async function createClaudeModel(
  env: Readonly<Record<string, string | undefined>>,
  choice: ModelChoice,
): Promise<{ model: ModelAdapter; models: ModelConfig }> {
  if (!env.ANTHROPIC_API_KEY?.trim() && !env.ANTHROPIC_AUTH_TOKEN?.trim()) throw new CliError(NO_KEY_MESSAGE);
  const baseURL = env.ANTHROPIC_BASE_URL?.trim();
  if (baseURL && !/^https?:\/\/[^/\s]/i.test(baseURL))
    throw new CliError(
      `ANTHROPIC_BASE_URL must be an http:// or https:// URL, not "${baseURL}" (unset it to use https://api.anthropic.com).`,
    );
  const { createAnthropicModel } = await import('@troupe/anthropic');
  const model = createAnthropicModel({ env, models: { ...choice } });
  return { model, models: { ...model.models } };
}
