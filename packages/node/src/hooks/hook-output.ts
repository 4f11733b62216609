import type { HookEventName } from './hook-config.js';
import type { ShellHookRun } from './run-shell-hook.js';

/** What one hook's run means, in Claude Code's protocol. */
export interface HookVerdict {
  /** PreToolUse: `deny` (exit 2, `permissionDecision: "deny"`, legacy `decision: "block"`), `ask`, `allow`. */
  decision?: 'allow' | 'deny' | 'ask';
  /** Blocks: the stop (Stop, SubagentStop), the prompt (UserPromptSubmit), or objects to a result (PostToolUse…); with its reason. */
  block?: string;
  reason?: string;
  additionalContext?: string;
  /** PreToolUse: `hookSpecificOutput.updatedInput`, the input the call runs with instead. */
  updatedInput?: unknown;
  /** `continue: false`: the agent stops, with `stopReason` (or a default). */
  stop?: string;
  /** `systemMessage`: for the user. */
  systemMessage?: string;
  /** A problem to report (a non-blocking error, a timeout, output that is not JSON). */
  problem?: string;
}

/** `name` as messages show it: the type and a short form of the command, URL or prompt. */
export function hookLabel(event: HookEventName, what: string): string {
  return `${event} hook \`${what.length > 80 ? `${what.slice(0, 77)}...` : what}\``;
}

/**
 * What exit code 2 (or a prompt hook's `ok: false`, an HTTP hook's `decision: "block"`) means for
 * `event`, with `reason` the text the model (or, for a prompt, the user) reads.
 */
export function blockingVerdict(event: HookEventName, name: string, reason: string): HookVerdict {
  if (event === 'PreToolUse') return { decision: 'deny', reason };
  if (event === 'SubagentStart')
    return { problem: `The ${name} tried to block (a start cannot be blocked): ${reason}` };
  return { block: reason };
}

/**
 * Reads a command hook's run with Claude Code's exit-code and JSON-output protocol: exit 0 with
 * JSON on stdout (see {@link readHookOutput}; for UserPromptSubmit, plain stdout is context for
 * the model); exit 2 blocks, its stderr the reason (see {@link blockingVerdict}); any other exit,
 * a timeout or a failure to start is a non-blocking problem.
 */
export function readHookRun(event: HookEventName, command: string, run: ShellHookRun): HookVerdict {
  const name = hookLabel(event, command);
  if (run.failed) return { problem: `The ${name} could not start: ${run.failed}.` };
  if (run.timedOut) return { problem: `The ${name} timed out and was killed; it counts as no answer.` };
  if (run.exitCode === 2)
    return blockingVerdict(
      event,
      name,
      run.stderr.trim() || `blocked by the ${event} hook (exit code 2, no message)`,
    );
  if (run.exitCode !== 0)
    return {
      problem: `The ${name} failed (exit code ${run.exitCode})${run.stderr.trim() ? `: ${run.stderr.trim().slice(0, 500)}` : ''}; it counts as no answer.`,
    };
  return readHookBody(event, name, run.stdout);
}

/**
 * A hook's answer text (a command's stdout, an HTTP hook's response body): JSON read with
 * {@link readHookOutput}; plain text is context for the model on UserPromptSubmit and ignored
 * elsewhere; text that looks like JSON and is not is a problem.
 */
export function readHookBody(event: HookEventName, name: string, body: string): HookVerdict {
  const text = body.trim();
  if (!text.startsWith('{')) return event === 'UserPromptSubmit' && text ? { additionalContext: text } : {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { problem: `The ${name} printed output that looks like JSON but is not; it was ignored.` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { problem: `The ${name} printed JSON that is not an object; it was ignored.` };
  return readHookOutput(event, name, parsed as Record<string, unknown>);
}

/**
 * Claude Code's JSON output: `continue`/`stopReason`, `systemMessage`, `decision`/`reason`, and
 * `hookSpecificOutput` (`permissionDecision`, `permissionDecisionReason`, `updatedInput`,
 * `additionalContext`). A field of the wrong type is a problem naming it; the rest is still read.
 * `suppressOutput` is accepted and means nothing here (troupe never shows a hook's stdout).
 */
export function readHookOutput(
  event: HookEventName,
  name: string,
  output: Record<string, unknown>,
): HookVerdict {
  const verdict: HookVerdict = {};
  const wrong: string[] = [];
  const specific =
    typeof output.hookSpecificOutput === 'object' &&
    output.hookSpecificOutput !== null &&
    !Array.isArray(output.hookSpecificOutput)
      ? (output.hookSpecificOutput as Record<string, unknown>)
      : {};
  if (output.hookSpecificOutput !== undefined && specific !== output.hookSpecificOutput)
    wrong.push('hookSpecificOutput (not an object)');
  const text = (value: unknown, field: string): string | undefined => {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value.trim() ? value : undefined;
    wrong.push(`${field} (not a string)`);
    return undefined;
  };
  const reason = text(output.reason, 'reason');
  const context = text(specific.additionalContext, 'hookSpecificOutput.additionalContext');
  if (context) verdict.additionalContext = context;
  const message = text(output.systemMessage, 'systemMessage');
  if (message) verdict.systemMessage = message;
  const stopReason = text(output.stopReason, 'stopReason');
  if (output.continue === false) verdict.stop = stopReason ?? `the ${name} answered continue: false`;
  else if (output.continue !== undefined && output.continue !== true) wrong.push('continue (not a boolean)');
  if (event === 'PreToolUse') {
    const decision = specific.permissionDecision ?? output.decision;
    const why =
      text(specific.permissionDecisionReason, 'hookSpecificOutput.permissionDecisionReason') ?? reason;
    if (decision === 'deny' || decision === 'block') verdict.decision = 'deny';
    else if (decision === 'ask') verdict.decision = 'ask';
    else if (decision === 'allow' || decision === 'approve') verdict.decision = 'allow';
    else if (decision !== undefined) wrong.push(`permissionDecision ${JSON.stringify(decision)}`);
    if (why) verdict.reason = why;
    const updated = specific.updatedInput;
    if (updated !== undefined) {
      if (typeof updated === 'object' && updated !== null && !Array.isArray(updated))
        verdict.updatedInput = updated;
      else wrong.push('hookSpecificOutput.updatedInput (not an object)');
    }
  } else if (output.decision === 'block') {
    if (event === 'SubagentStart') wrong.push('decision "block" (a start cannot be blocked)');
    else verdict.block = reason ?? `blocked by the ${event} hook`;
  } else if (output.decision !== undefined && output.decision !== 'approve')
    wrong.push(`decision ${JSON.stringify(output.decision)}`);
  if (wrong.length)
    verdict.problem = `The ${name} printed JSON with fields troupe cannot use: ${wrong.join(', ')}; they were ignored.`;
  return verdict;
}
