import { TroupeError } from '../errors.js';
import type { ApprovalRequest } from '../events.js';
import { describeThrown } from '../persistence/plain-json.js';
import type { TaskSpec } from '../persistence/types.js';
import type { ToolAccess } from '../tools/define-tool.js';
import type { RuntimeEmitter } from './emitter.js';
import { settleByMode } from './permission-modes.js';
import type { ApprovalAnswer } from './run-host.js';
import type { ApprovalDisposition } from './subagent-snapshot.js';

/**
 * A decision from an approval policy function. `ask` hands the request to the host
 * (`approval.requested`), as the `ask` policy does: a policy can decide some calls and leave the rest.
 */
export type ApprovalDecision = 'approve' | 'deny' | 'ask' | { decision: 'approve' | 'deny'; reason?: string };

/**
 * How write and execute tools are approved: `ask` (the host decides through `approval.requested`;
 * the default), `auto` (approve all), `deny` (deny all), or a function of the request. Read tools
 * never need approval.
 */
export type ApprovalPolicy =
  | 'ask'
  | 'auto'
  | 'deny'
  | ((request: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>);

/**
 * A policy function's return value as a decision, or undefined when it is not one. Each field is
 * read once; a getter or proxy trap that throws is left to the caller.
 */
function readDecision(value: unknown): { decision: 'approve' | 'deny'; reason?: string } | undefined {
  if (value === 'approve' || value === 'deny') return { decision: value };
  if (typeof value !== 'object' || value === null) return undefined;
  const { decision, reason } = value as { decision?: unknown; reason?: unknown };
  if (decision !== 'approve' && decision !== 'deny') return undefined;
  return typeof reason === 'string' ? { decision, reason } : { decision };
}

function describe(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  try {
    return (JSON.stringify(value) ?? typeof value).slice(0, 80);
  } catch {
    return typeof value;
  }
}

interface Pending {
  request: ApprovalRequest;
  answer: (answer: ApprovalAnswer) => void;
  /** A `PreToolUse` hook allowed the call: what would go to the host is approved instead. */
  hookAllowed?: boolean;
}

/** Routes approval requests from tasks to the policy or the host, and decisions back. */
export class ApprovalCoordinator {
  private readonly pending = new Map<string, Pending>();
  /** sessionKey → tools the user chose to always allow in that session. */
  private readonly always = new Map<string, Set<string>>();

  /**
   * @param scopeOf where an "always allow" for a task is remembered: its session key, or a scope
   *   of its own for a task that has no session.
   */
  constructor(
    private readonly policy: ApprovalPolicy,
    private readonly emitter: RuntimeEmitter,
    private readonly scopeOf: (taskId: string, sessionKey: string) => string = (_taskId, key) => key,
  ) {}

  private alwaysAllows(taskId: string, sessionKey: string, tool: string): boolean {
    return this.always.get(this.scopeOf(taskId, sessionKey))?.has(tool) ?? false;
  }

  dispositionFor(spec: TaskSpec, tool: string, access: ToolAccess): ApprovalDisposition {
    if (this.policy === 'deny') return { deny: 'the approval policy denies write and execute tools.' };
    // Plan mode is read-only whatever the policy would approve.
    const mode = spec.permissionMode;
    if (mode === 'plan') return { deny: (settleByMode(mode, tool, access) as { reason: string }).reason };
    if (this.policy === 'auto') return 'run';
    // A policy function (permission rules) decides every call: an "always allow" and the task's
    // permission mode only answer the calls it leaves to the host, so a deny rule still holds.
    if (typeof this.policy === 'function') return 'approval';
    if (this.alwaysAllows(spec.taskId, spec.sessionKey, tool)) return 'run';
    const settled = settleByMode(mode, tool, access);
    if (settled === 'ask') return 'approval';
    return settled.decision === 'approve' ? 'run' : { deny: settled.reason };
  }

  /**
   * Asks about `request`: the remembered "always allow", the policy, or the host
   * (`approval.requested`). Resolves with the decision. Aborting `signal` withdraws the request
   * (its task ended or left `awaitingApproval`); the promise then never settles. With
   * `hookAllowed` (a `PreToolUse` hook allowed the call), what would be asked of the host is
   * approved instead; the policy's own decisions, denials first, still hold.
   */
  request(
    request: ApprovalRequest,
    signal: AbortSignal,
    options: { hookAllowed?: boolean } = {},
  ): Promise<ApprovalAnswer> {
    return new Promise((answer) => {
      if (signal.aborted) return;
      const asked: Pending = options.hookAllowed
        ? { request, answer, hookAllowed: true }
        : { request, answer };
      signal.addEventListener('abort', () => this.withdraw(request.id, asked), { once: true });
      this.ask(asked);
    });
  }

  private ask(asked: Pending): void {
    const { request } = asked;
    const policy = this.policy;
    if (typeof policy !== 'function' && this.alwaysAllows(request.taskId, request.sessionKey, request.tool)) {
      this.decide(asked, 'approve', undefined, 'always');
      return;
    }
    if (typeof policy === 'function') {
      Promise.resolve()
        .then(() => policy(request))
        .then(
          (decision) => this.policyDecided(asked, decision),
          (error: unknown) =>
            this.policyFailed(asked, `the approval policy failed: ${describeThrown(error)}`),
        )
        // Never an unhandled rejection: whatever went wrong above, the call is denied.
        .catch((error: unknown) =>
          this.policyFailed(asked, `the approval could not be decided: ${describeThrown(error)}`),
        );
      return;
    }
    if (policy === 'auto' || policy === 'deny') {
      this.decide(asked, policy === 'auto' ? 'approve' : 'deny', undefined, 'policy');
      return;
    }
    this.askHostOrMode(asked);
  }

  /** A call the policy left open: the task's permission mode settles it, or the host is asked. */
  private askHostOrMode(asked: Pending): void {
    const { request } = asked;
    const settled = settleByMode(request.permissionMode, request.tool, request.access);
    if (settled === 'ask') this.askHost(asked);
    else this.decide(asked, settled.decision, 'reason' in settled ? settled.reason : undefined, 'policy');
  }

  /** What a policy function answered, read defensively: anything but a decision denies the call. */
  private policyDecided(asked: Pending, decision: unknown): void {
    if (decision === 'ask') {
      const { request } = asked;
      if (
        request.permissionMode !== 'plan' &&
        this.alwaysAllows(request.taskId, request.sessionKey, request.tool)
      )
        this.decide(asked, 'approve', undefined, 'always');
      else this.askHostOrMode(asked);
      return;
    }
    let value: ReturnType<typeof readDecision>;
    try {
      value = readDecision(decision);
    } catch (error) {
      this.policyFailed(asked, `the approval policy's decision could not be read: ${describeThrown(error)}`);
      return;
    }
    if (!value) {
      const got = describe(decision);
      this.policyFailed(asked, `the approval policy returned ${got}, not a decision`);
      return;
    }
    this.decide(asked, value.decision, value.reason, 'policy');
  }

  /** Denies a call the policy could not decide, with a warning naming the task and the tool. */
  private policyFailed(asked: Pending, reason: string): void {
    const { request } = asked;
    this.emitter.emit('runtime.warning', {
      code: 'APPROVAL_POLICY_INVALID',
      message: `The approval policy could not decide ${request.tool} in task ${request.taskId} (${reason}); the call was denied. Return 'approve', 'deny', 'ask' or { decision, reason }.`,
      taskId: request.taskId,
    });
    this.decide(asked, 'deny', reason, 'policy');
  }

  private askHost(asked: Pending): void {
    if (asked.hookAllowed) {
      this.decide(asked, 'approve', 'a PreToolUse hook allowed it', 'hook');
      return;
    }
    this.pending.set(asked.request.id, asked);
    this.emitter.emit('approval.requested', asked.request);
  }

  /** The host's decision. Throws APPROVAL_NOT_FOUND for an id that is not waiting. */
  resolve(
    id: string,
    decision: 'approve' | 'deny',
    options: { reason?: string; always?: boolean } = {},
  ): void {
    const pending = this.pending.get(id);
    if (!pending) {
      throw new TroupeError(
        'APPROVAL_NOT_FOUND',
        `No approval is waiting with id "${id}". It may have been decided already, or its task ended.`,
        { details: { approvalId: id } },
      );
    }
    let always: boolean;
    let reason: string | undefined;
    try {
      always = decision === 'approve' && options.always === true;
      const given = options.reason;
      reason = typeof given === 'string' ? given : undefined;
    } catch (error) {
      // The host's own options cannot be read: deny rather than guess, and say why.
      this.pending.delete(id);
      const why = `the host's decision could not be read: ${describeThrown(error)}`;
      this.emitter.emit('runtime.warning', {
        code: 'APPROVAL_POLICY_INVALID',
        message: `The decision on ${pending.request.tool} in task ${pending.request.taskId} (${why}); the call was denied.`,
        taskId: pending.request.taskId,
      });
      this.decide(pending, 'deny', why, 'host');
      return;
    }
    if (decision !== 'approve' && decision !== 'deny')
      throw new TroupeError(
        'VALIDATION_FAILED',
        `An approval is decided with 'approve' or 'deny'; got ${describe(decision)} for "${id}". The approval still waits.`,
        { details: { approvalId: id } },
      );
    this.pending.delete(id);
    if (always) {
      const key = this.scopeOf(pending.request.taskId, pending.request.sessionKey);
      let tools = this.always.get(key);
      if (!tools) {
        tools = new Set();
        this.always.set(key, tools);
      }
      tools.add(pending.request.tool);
    }
    this.decide(pending, decision, reason, 'host');
  }

  /** Emits `approval.resolved` for a call the policy or an "always allow" decided without asking. */
  reportAutomatic(request: ApprovalRequest, decision: 'approve' | 'deny', reason?: string): void {
    const by = this.alwaysAllows(request.taskId, request.sessionKey, request.tool) ? 'always' : 'policy';
    this.emitter.emit('approval.resolved', { ...request, decision, by, ...(reason ? { reason } : {}) });
  }

  /** Forgets a request whose task no longer waits for it (`asked`: only if it is still that one). */
  private withdraw(id: string, asked: Pending): void {
    if (this.pending.get(id) === asked) this.pending.delete(id);
    asked.answer = () => {};
  }

  /** Approvals waiting for the host, oldest first. */
  list(): ApprovalRequest[] {
    return [...this.pending.values()].map((pending) => pending.request);
  }

  /** Tools always allowed in a session. */
  alwaysAllowed(sessionKey: string): string[] {
    return [...(this.always.get(sessionKey) ?? [])];
  }

  private decide(
    asked: Pending,
    decision: 'approve' | 'deny',
    reason: string | undefined,
    by: 'host' | 'policy' | 'always' | 'hook',
  ): void {
    const request = asked.request;
    asked.answer(reason ? { decision, reason } : { decision });
    if (this.emitter.listening('approval.resolved'))
      this.emitter.emit('approval.resolved', { ...request, decision, by, ...(reason ? { reason } : {}) });
  }
}
