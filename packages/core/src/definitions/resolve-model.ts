import { normaliseModel } from './model-alias.js';
import type { AgentDefinition } from './types.js';

/** Default ids behind the `haiku`, `sonnet` and `opus` aliases when the host configures none. */
export const DEFAULT_MODEL_IDS = {
  haiku: 'claude-haiku-5-5',
  sonnet: 'claude-sonnet-5-5',
  opus: 'claude-opus-5-5',
} as const;

/** The runtime's model configuration: the default id and what each alias means. */
export interface ModelConfig {
  /** The main model id; also what `plan` means unless `plan` is set. */
  default: string;
  /** Fast model for `small` (e.g. the explore agent); defaults to the `haiku` id. */
  small?: string;
  /** Planning model for `plan`; defaults to `default`. */
  plan?: string;
  haiku?: string;
  sonnet?: string;
  opus?: string;
}

/** Inputs of {@link resolveModel}. */
export interface ResolveModelOptions {
  /** The `model` given when the task was started (the `task` tool's `model`), if any. */
  callSite?: string | undefined;
  definition?: Pick<AgentDefinition, 'model'> | undefined;
  /** The parent's (resolved) model id; `models.default` when absent. */
  parent?: string | undefined;
  models: ModelConfig;
}

/**
 * Picks the model id a task runs on: the call-site `model`, else the definition's `model`, else
 * the parent's (`inherit` at either level means "look further"). Aliases are then mapped through
 * `models`: `small` → `models.small` ?? the haiku id; `plan` → `models.plan` ?? `models.default`;
 * `haiku` / `sonnet` / `opus` → `models.<alias>` ?? a default id of that family. Display names
 * (`Claude Sonnet 4.5`) map to their alias; any other value is returned as an id.
 */
export function resolveModel(options: ResolveModelOptions): string {
  const { callSite, definition, parent, models } = options;
  for (const candidate of [callSite, definition?.model]) {
    if (candidate === undefined || candidate.trim() === '') continue;
    const { model } = normaliseModel(candidate);
    if (model !== 'inherit') return resolveModelAlias(model, models);
  }
  return parent ?? models.default;
}

/** Maps an alias (any case) to its configured id; returns any other value unchanged. */
export function resolveModelAlias(value: string, models: ModelConfig): string {
  switch (value.toLowerCase()) {
    case 'small':
      return models.small ?? models.haiku ?? DEFAULT_MODEL_IDS.haiku;
    case 'plan':
      return models.plan ?? models.default;
    case 'haiku':
      return models.haiku ?? DEFAULT_MODEL_IDS.haiku;
    case 'sonnet':
      return models.sonnet ?? DEFAULT_MODEL_IDS.sonnet;
    case 'opus':
      return models.opus ?? DEFAULT_MODEL_IDS.opus;
    case 'inherit':
      return models.default;
    default:
      return value;
  }
}
