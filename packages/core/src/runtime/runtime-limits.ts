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
