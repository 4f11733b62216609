import { type ModelAdapter, ModelError } from '@troupe/core';

/**
 * The model when Claude is chosen with neither a key nor a proxy: every call fails at once with
 * `MODEL_NOT_CONFIGURED`, saying what to set, so the conversation shows it (no request leaves).
 */
export function unconfiguredModel(): ModelAdapter {
  return {
    name: 'anthropic (not configured)',
    generate() {
      return Promise.reject(
        new ModelError(
          'MODEL_NOT_CONFIGURED',
          'Claude is chosen, but this tab has no Anthropic API key and no proxy base URL is saved, so no request was sent.',
        ),
      );
    },
  };
}
