import { type ApprovalRequest, FINAL_TASK_EVENTS, type PermissionPolicy, type Runtime } from '@troupe/core';
import { approvalLines, approvalPrompt } from '../render/approval-text.js';
import type { Colors } from '../render/colors.js';
import type { Prompter } from './prompter.js';

/** How approval requests are answered. */
type ApprovalMode =
  /** Ask the user through the prompter. */
  | 'ask'
  /** Approve at once and say so (the demo outside a terminal). */
  | 'auto-announced';

/** Options of {@link attachApprovalDesk}. */
export interface ApprovalDeskOptions {
  runtime: Runtime;
  prompter: Prompter;
  colors: Colors;
  log: (text: string) => void;
  mode: ApprovalMode;
  /** Why approvals are automatic (printed with each one in `auto-announced` mode). */
  autoReason?: string;
  /** Reads a file as it is now (for the diff of `write` / `edit`); undefined when it does not exist. */
  readFile?: (path: string) => string | undefined;
  /** The session's permission rules: a scoped "always allow" answer (`p`) adds one. */
  permissions?: PermissionPolicy;
  /** The narrower rule to offer for a call (`Bash(npm test:*)`, `Edit(src/**)`), if any. */
  suggestScope?: (request: ApprovalRequest) => string | undefined;
}

/** Parses an answer: y/yes, n/no (optionally followed by a reason), a/always, p (always, scoped). */
export function parseApprovalAnswer(
  text: string,
): { decision: 'approve' | 'deny'; always?: boolean; scoped?: boolean; reason?: string } | undefined {
  const trimmed = text.trim();
  const match = /^(\S+)\s*(.*)$/s.exec(trimmed);
  const word = match?.[1]?.toLowerCase() ?? '';
  if (word === 'y' || word === 'yes') return { decision: 'approve' };
  if (word === 'a' || word === 'always') return { decision: 'approve', always: true };
  if (word === 'p') return { decision: 'approve', scoped: true };
  if (word === 'n' || word === 'no') {
    const reason = match?.[2]?.trim();
    return reason ? { decision: 'deny', reason } : { decision: 'deny' };
  }
  return undefined;
}

/**
 * Answers the runtime's approval requests: shows each (agent, tool, full input) and asks
 * approve / deny / always through the prompter, one at a time, or approves automatically and says
 * so. A question whose task ends first is withdrawn. Returns the function that detaches it.
 */
export function attachApprovalDesk(options: ApprovalDeskOptions): () => void {
  const { runtime, prompter, colors, log } = options;
  // A waiting question an "always" answer settled leaves the screen: say what went through with it.
  const alsoApproved = (pending: ApprovalRequest) =>
    log(colors.dim(`Also approved (always allowed): [${pending.agent}] ${pending.tool}.`));
  const decide = async (request: ApprovalRequest) => {
    if (options.mode === 'auto-announced') {
      for (const line of approvalLines(request, colors, readerOf(options))) log(line);
      log(colors.dim(`Approved automatically${options.autoReason ? ` (${options.autoReason})` : ''}.`));
      runtime.approve(request.id);
      return;
    }
    let lines = approvalLines(request, colors, readerOf(options));
    const scope = options.permissions ? options.suggestScope?.(request) : undefined;
    for (;;) {
      const answer = await prompter.ask({
        key: request.id,
        lines,
        prompt: approvalPrompt(request.tool, scope),
      });
      if (answer === undefined) {
        // Withdrawn: its task ended (nothing to do), or nobody is left to answer (deny it).
        if (runtime.pendingApprovals().some((pending) => pending.id === request.id)) {
          runtime.deny(request.id, 'Nobody answered the approval (input ended).');
          log(colors.yellow(`Denied ${request.tool}: nobody answered (input ended).`));
        }
        return;
      }
      const parsed = parseApprovalAnswer(answer);
      if (!parsed || (parsed.scoped && !scope)) {
        lines = [
          colors.yellow(
            `Please answer y (approve), n (deny, optionally with a reason), a (always allow ${request.tool})${scope ? ` or p (always allow ${scope})` : ''}.`,
          ),
        ];
        continue;
      }
      if (!runtime.pendingApprovals().some((pending) => pending.id === request.id)) {
        log(colors.dim('That approval is no longer waiting (its task ended).'));
        return;
      }
      if (parsed.scoped && scope && options.permissions) {
        options.permissions.allow(scope);
        runtime.approve(request.id);
        approveCovered(runtime, prompter, options.permissions, alsoApproved);
        log(colors.green(`Approved; ${scope} is allowed for the rest of this session.`));
      } else if (parsed.decision === 'approve') {
        runtime.approve(request.id, parsed.always ? { always: true } : {});
        if (parsed.always) approveWaiting(runtime, prompter, request, alsoApproved);
        log(
          colors.green(
            parsed.always
              ? `Approved; ${request.tool} is allowed for the rest of this session.`
              : `Approved ${request.tool}.`,
          ),
        );
      } else {
        runtime.deny(request.id, parsed.reason ?? 'The user denied it.');
        log(colors.yellow(`Denied ${request.tool}${parsed.reason ? `: ${parsed.reason}` : ''}.`));
      }
      return;
    }
  };
  const offs = [
    runtime.on('approval.requested', (request) => {
      void decide(request).catch((error: unknown) => log(`troupe: ${(error as Error).message}`));
    }),
    runtime.on('approval.resolved', (event) => {
      // Decided elsewhere (an "always" answer to an earlier request): stop asking.
      if (event.by !== 'host') prompter.withdraw((key) => key === event.id);
    }),
    ...FINAL_TASK_EVENTS.map((name) =>
      runtime.on(name, (event) => prompter.withdraw((key) => key.startsWith(`${event.taskId}:`))),
    ),
  ];
  return () => {
    for (const off of offs) off();
  };
}

function readerOf(options: ApprovalDeskOptions): { readFile?: (path: string) => string | undefined } {
  return options.readFile ? { readFile: options.readFile } : {};
}

/** After a scoped "always": approvals that were already waiting and that the new rule covers go through. */
function approveCovered(
  runtime: Runtime,
  prompter: Prompter,
  permissions: PermissionPolicy,
  approved: (request: ApprovalRequest) => void,
): void {
  for (const pending of runtime.pendingApprovals()) {
    if (permissions.matching(pending)?.effect !== 'allow') continue;
    prompter.withdraw((key) => key === pending.id);
    runtime.approve(pending.id);
    approved(pending);
  }
}

/** After "always": approvals of the same tool and session that were already waiting go through too. */
function approveWaiting(
  runtime: Runtime,
  prompter: Prompter,
  request: ApprovalRequest,
  approved: (request: ApprovalRequest) => void,
): void {
  for (const pending of runtime.pendingApprovals()) {
    if (pending.tool !== request.tool || pending.sessionKey !== request.sessionKey) continue;
    prompter.withdraw((key) => key === pending.id);
    runtime.approve(pending.id);
    approved(pending);
  }
}

/**
 * Attaches an asking desk over a terminal when the approval mode is `ask`; with any other mode
 * the runtime's policy decides and nothing is attached. Returns the function that detaches it.
 */
export function attachDeskIfAsking(
  runtime: ApprovalDeskOptions['runtime'],
  terminal: {
    prompter: ApprovalDeskOptions['prompter'];
    colors: ApprovalDeskOptions['colors'];
    log(text: string): void;
  },
  mode: string,
): () => void {
  if (mode !== 'ask') return () => {};
  return attachApprovalDesk({
    runtime,
    prompter: terminal.prompter,
    colors: terminal.colors,
    log: (text) => terminal.log(text),
    mode: 'ask',
  });
}
