import { TroupeError } from '../errors.js';
import type { ApprovalRequest } from '../events.js';
import type { TaskSpec } from '../persistence/types.js';
import type { RuntimeEmitter } from './emitter.js';
import type { ApprovalDisposition } from './subagent-snapshot.js';
import type { TaskDriver } from './task-driver.js';

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

/** A policy function's return value as a decision, or undefined when it is not one. */
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
  driver: TaskDriver;
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

  dispositionFor(spec: TaskSpec, tool: string): ApprovalDisposition {
    if (this.policy === 'auto') return 'run';
    if (this.policy === 'deny') return { deny: 'the approval policy denies write and execute tools.' };
    if (this.alwaysAllows(spec.taskId, spec.sessionKey, tool)) return 'run';
    return 'approval';
  }

  request(driver: TaskDriver, request: ApprovalRequest): void {
    if (this.alwaysAllows(request.taskId, request.sessionKey, request.tool)) {
      this.decide(driver, request, 'approve', undefined, 'always');
      return;
    }
    const policy = this.policy;
    if (typeof policy === 'function') {
      Promise.resolve()
        .then(() => policy(request))
        .then(
          (decision) => {
            if (decision === 'ask') {
              this.askHost(driver, request);
              return;
            }
            const value = readDecision(decision);
            if (!value) {
              const got = describe(decision);
              this.emitter.emit('runtime.warning', {
                code: 'APPROVAL_POLICY_INVALID',
                message: `The approval policy returned ${got} for ${request.tool} in task ${request.taskId}; the call was denied. Return 'approve', 'deny', 'ask' or { decision, reason }.`,
                taskId: request.taskId,
              });
              this.decide(
                driver,
                request,
                'deny',
                `the approval policy returned ${got}, not a decision`,
                'policy',
              );
              return;
            }
            this.decide(driver, request, value.decision, value.reason, 'policy');
          },
          (error: unknown) =>
            this.decide(
              driver,
              request,
              'deny',
              `the approval policy failed: ${(error as Error)?.message ?? error}`,
              'policy',
            ),
        );
      return;
    }
    if (policy === 'auto' || policy === 'deny') {
      this.decide(driver, request, policy === 'auto' ? 'approve' : 'deny', undefined, 'policy');
      return;
    }
    this.askHost(driver, request);
  }

  private askHost(driver: TaskDriver, request: ApprovalRequest): void {
    this.pending.set(request.id, { request, driver });
    this.emitter.emit('approval.requested', request);
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
    this.pending.delete(id);
    if (decision === 'approve' && options.always) {
      const key = this.scopeOf(pending.request.taskId, pending.request.sessionKey);
      let tools = this.always.get(key);
      if (!tools) {
        tools = new Set();
        this.always.set(key, tools);
      }
      tools.add(pending.request.tool);
    }
    this.decide(pending.driver, pending.request, decision, options.reason, 'host');
  }

  /** Emits `approval.resolved` for a call the policy or an "always allow" decided without asking. */
  reportAutomatic(request: ApprovalRequest, decision: 'approve' | 'deny', reason?: string): void {
    const by = this.alwaysAllows(request.taskId, request.sessionKey, request.tool) ? 'always' : 'policy';
    this.emitter.emit('approval.resolved', { ...request, decision, by, ...(reason ? { reason } : {}) });
  }

  withdraw(id: string): void {
    this.pending.delete(id);
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
    driver: TaskDriver,
    request: ApprovalRequest,
    decision: 'approve' | 'deny',
    reason: string | undefined,
    by: 'host' | 'policy' | 'always',
  ): void {
    driver.resolveApproval(request.toolUseId, decision, reason);
    if (this.emitter.listening('approval.resolved'))
      this.emitter.emit('approval.resolved', { ...request, decision, by, ...(reason ? { reason } : {}) });
  }
}
