import { TroupeError } from '../errors.js';

/** Runtime-wide limits. Per-agent fields in a definition override the task defaults. */
export interface RuntimeLimits {
  /** Sub-agents running at once; the rest queue (FIFO). Default 5. */
  maxConcurrent: number;
  /** Turns per task. Default 10. */
  maxTurns: number;
  /** Input + output tokens per task. Default 100,000. */
  tokenBudget: number;
  /** Wall-clock ms per task (time awaiting approval excluded). Default 300,000. */
  timeoutMs: number;
  /**
   * Nesting depth: 1 means sub-agents cannot start sub-agents; 3 (the default, as in Claude Code)
   * lets a sub-agent's sub-agent start one more. A child's budget and deadline fit in its parent's.
   */
  maxDepth: number;
  /** Turns per user message for a session's main agent. Default 40. */
  mainMaxTurns: number;
}

/** The limits a runtime gets for those its options leave out. */
const DEFAULT_LIMITS: RuntimeLimits = {
  maxConcurrent: 5,
  maxTurns: 10,
  tokenBudget: 100_000,
  timeoutMs: 300_000,
  maxDepth: 3,
  mainMaxTurns: 40,
};

/**
 * A runtime's limits: `given` over the defaults. Throws `VALIDATION_FAILED` naming the first limit
 * that is not a positive integer.
 */
export function runtimeLimits(given: Partial<RuntimeLimits> | undefined): RuntimeLimits {
  const limits = { ...DEFAULT_LIMITS, ...given };
  for (const [key, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value < 1)
      throw new TroupeError(
        'VALIDATION_FAILED',
        `limits.${key} must be a positive integer, got ${JSON.stringify(value)}.`,
      );
  }
  return limits;
}
