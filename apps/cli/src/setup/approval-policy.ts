import type { CliOptions } from '../arguments.js';
import type { CliConfig } from '../config.js';

/** How write and execute tools are approved, and the line that says so (outside a terminal). */
export interface ApprovalChoice {
  mode: 'ask' | 'auto' | 'deny';
  /** Printed at start when the choice was made because there is no terminal to ask on. */
  notice?: string;
}

/**
 * `--approval`, else the config file's `approval`, else `ask` in a terminal and `deny` elsewhere
 * (nothing waits for input unless asked to).
 */
export function chooseApproval(options: CliOptions, config: CliConfig, interactive: boolean): ApprovalChoice {
  const chosen = options.approval ?? config.approval;
  if (chosen) return { mode: chosen };
  if (interactive) return { mode: 'ask' };
  return {
    mode: 'deny',
    notice:
      'Not a terminal: write and execute tools (write, edit, bash) will be denied. Pass --approval auto to allow them, or --approval ask to answer on stdin.',
  };
}
