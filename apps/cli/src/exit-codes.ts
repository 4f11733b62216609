/** Exit codes of the `troupe` command (documented in the README). */
export const EXIT = {
  /** Success; for `run`, the task ended with GOAL. */
  ok: 0,
  /** An error in the environment or a file: no API key, bad config file, unreadable folder, a failed validation. */
  error: 1,
  /** A usage error: unknown command or flag, bad flag value, unknown agent, missing prompt. */
  usage: 2,
  /** `run`: the task hit its turn limit. */
  maxTurns: 3,
  /** `run`: the task ran out of time. */
  timeout: 4,
  /** `run`: the task used up its token budget. */
  tokenLimit: 5,
  /** `run`: the task failed with an error (model, tool or output schema). */
  taskError: 6,
  /** Interrupted (Ctrl-C) or cancelled. */
  aborted: 130,
} as const;

/** Why a task ended (mirrors `TerminateReason` of @troupe/core, kept here so --help loads nothing). */
export type TerminateReasonName = 'GOAL' | 'TIMEOUT' | 'MAX_TURNS' | 'TOKEN_LIMIT' | 'ABORTED' | 'ERROR';

/** The exit code of `troupe run` for a task's terminate reason. */
export function exitCodeFor(reason: TerminateReasonName): number {
  switch (reason) {
    case 'GOAL':
      return EXIT.ok;
    case 'MAX_TURNS':
      return EXIT.maxTurns;
    case 'TIMEOUT':
      return EXIT.timeout;
    case 'TOKEN_LIMIT':
      return EXIT.tokenLimit;
    case 'ABORTED':
      return EXIT.aborted;
    default:
      return EXIT.taskError;
  }
}
