import type { AgentEffort } from './types.js';

/**
 * The thinking budget (tokens) each effort level asks of the model: `low` is the API's minimum
 * (1,024). A model request with a budget enables extended thinking; the adapter raises
 * `max_tokens` above it as the API requires.
 */
export const EFFORT_THINKING_BUDGET: Readonly<Record<AgentEffort, number>> = {
  low: 1_024,
  medium: 4_096,
  high: 16_384,
  xhigh: 32_000,
  max: 48_000,
};
