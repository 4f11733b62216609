import type { HookEventName } from './hook-config.js';
import type { ShellHookRun } from './run-shell-hook.js';

/** What one hook's run means, in Claude Code's protocol. */
export interface HookVerdict {
  /** PreToolUse: `deny` (exit 2, `permissionDecision: "deny"`, legacy `decision: "block"`), `ask`, `allow`. */
  decision?: 'allow' | 'deny' | 'ask';
  /** Blocks: the stop (SubagentStop) or objects to a result (PostToolUse); with its reason. */
  block?: string;
  reason?: string;
  additionalContext?: string;
  /** A problem to report (a non-blocking error, a timeout, output that is not JSON). */
  problem?: string;
}

/**
 * Reads a hook's run with Claude Code's exit-code and JSON-output protocol: exit 0 with JSON on
 * stdout (`decision`/`reason`, `hookSpecificOutput.permissionDecision`,
 * `permissionDecisionReason`, `additionalContext`); exit 2 blocks, its stderr the reason the model
 * reads (SubagentStart cannot block); any other exit, a timeout or a failure to start is a
 * non-blocking problem.
 */
export function readHookRun(event: HookEventName, command: string, run: ShellHookRun): HookVerdict {
  const name = `${event} hook \`${command.length > 80 ? `${command.slice(0, 77)}...` : command}\``;
  if (run.failed) return { problem: `The ${name} could not start: ${run.failed}.` };
  if (run.timedOut) return { problem: `The ${name} timed out and was killed; it counts as no answer.` };
  if (run.exitCode === 2) {
    const reason = run.stderr.trim() || `blocked by the ${event} hook (exit code 2, no message)`;
    if (event === 'PreToolUse') return { decision: 'deny', reason };
    if (event === 'SubagentStart')
      return { problem: `The ${name} exited 2 (it cannot block a start): ${reason}` };
    return { block: reason };
  }
  if (run.exitCode !== 0)
    return {
      problem: `The ${name} failed (exit code ${run.exitCode})${run.stderr.trim() ? `: ${run.stderr.trim().slice(0, 500)}` : ''}; it counts as no answer.`,
    };
  const text = run.stdout.trim();
  if (!text.startsWith('{')) return {};
  let output: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    output = parsed as Record<string, unknown>;
  } catch {
    return { problem: `The ${name} printed output that looks like JSON but is not; it was ignored.` };
  }
  const verdict: HookVerdict = {};
  const specific =
    typeof output.hookSpecificOutput === 'object' && output.hookSpecificOutput !== null
      ? (output.hookSpecificOutput as Record<string, unknown>)
      : {};
  const reason = typeof output.reason === 'string' && output.reason.trim() ? output.reason : undefined;
  const context = specific.additionalContext;
  if (typeof context === 'string' && context.trim()) verdict.additionalContext = context;
  if (event === 'PreToolUse') {
    const decision = specific.permissionDecision ?? output.decision;
    const why =
      typeof specific.permissionDecisionReason === 'string' ? specific.permissionDecisionReason : reason;
    if (decision === 'deny' || decision === 'block') verdict.decision = 'deny';
    else if (decision === 'ask') verdict.decision = 'ask';
    else if (decision === 'allow' || decision === 'approve') verdict.decision = 'allow';
    if (why) verdict.reason = why;
    return verdict;
  }
  if (output.decision === 'block' && event !== 'SubagentStart')
    verdict.block = reason ?? `blocked by the ${event} hook`;
  return verdict;
}
