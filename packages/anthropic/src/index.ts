// The public API of @troupe/anthropic: a troupe ModelAdapter over the official Anthropic SDK.
export { type AnthropicModel, createAnthropicModel } from './anthropic-model.js';
export { classifyError, type Failure } from './classify-error.js';
export { fromContentBlock, fromMessage, fromStopReason, fromUsage } from './from-anthropic.js';
export {
  DEFAULT_MODEL_IDS,
  type ModelAlias,
  type ModelTable,
  resolveModelId,
  resolveModelTable,
} from './model-aliases.js';
export type { AnthropicModelOptions, CacheOptions, RetryEvent } from './options.js';
export { backoffDelay, retryAfterMs } from './retry-policy.js';
export { DEFAULT_BASE_URL, MISSING_KEY_MESSAGE } from './settings.js';
export {
  type RequestSettings,
  toBlockParam,
  toMessageParams,
  toRequestParams,
  toSystemParam,
  toToolParams,
} from './to-anthropic.js';
