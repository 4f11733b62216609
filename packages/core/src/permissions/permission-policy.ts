import type { ApprovalRequest } from '../events.js';
import type { ApprovalDecision } from '../runtime/approvals.js';
import { permissionRuleMatches } from './match-permission-rule.js';
import { type PermissionRule, parsePermissionRule } from './permission-rule.js';

/** Options of {@link createPermissionPolicy}. */
export interface PermissionPolicyOptions {
  /** Rules whose calls run without asking (Claude Code's `permissions.allow`). */
  allow?: readonly string[];
  /** Rules whose calls are refused; they win over `allow` (Claude Code's `permissions.deny`). */
  deny?: readonly string[];
  /** What happens to a call no rule matches: ask the host (default), approve or deny it. */
  otherwise?: 'ask' | 'approve' | 'deny';
  /** The workspace root, to match absolute file paths against workspace-relative patterns. */
  root?: string;
}

/** A permission policy: rules, and the approval function a runtime takes. */
export interface PermissionPolicy {
  /** The approval policy function to pass as `createRuntime({ approval })`. */
  readonly decide: (request: ApprovalRequest) => ApprovalDecision;
  /** Adds an allow rule from now on (an "always allow" answer scoped to a command or a path). */
  allow(rule: string): PermissionRule;
  /** The rules, as parsed. */
  rules(): { allow: PermissionRule[]; deny: PermissionRule[] };
  /** The first deny rule, else the first allow rule, that covers a call. */
  matching(
    request: Pick<ApprovalRequest, 'tool' | 'input'>,
  ): { rule: PermissionRule; effect: 'allow' | 'deny' } | undefined;
}

/**
 * Builds an approval policy from permission rules in Claude Code's syntax: a call a deny rule covers
 * is denied (naming the rule), one an allow rule covers is approved, and the rest follow
 * `otherwise`. Throws a `ValidationError` naming the first rule that cannot be parsed.
 */
export function createPermissionPolicy(options: PermissionPolicyOptions = {}): PermissionPolicy {
  const allowRules = (options.allow ?? []).map(parsePermissionRule);
  const denyRules = (options.deny ?? []).map(parsePermissionRule);
  const otherwise = options.otherwise ?? 'ask';
  const where = options.root === undefined ? {} : { root: options.root };
  const policy: PermissionPolicy = {
    matching(request) {
      const denied = denyRules.find((rule) => permissionRuleMatches(rule, request, where));
      if (denied) return { rule: denied, effect: 'deny' };
      const allowed = allowRules.find((rule) => permissionRuleMatches(rule, request, where));
      return allowed ? { rule: allowed, effect: 'allow' } : undefined;
    },
    decide(request) {
      const found = policy.matching(request);
      if (found?.effect === 'deny')
        return { decision: 'deny', reason: `the permission rule ${found.rule.text} denies it` };
      if (found) return 'approve';
      if (otherwise === 'deny')
        return {
          decision: 'deny',
          reason: 'no permission rule allows it, and the approval policy denies the rest',
        };
      return otherwise;
    },
    allow(rule) {
      const parsed = parsePermissionRule(rule);
      allowRules.push(parsed);
      return parsed;
    },
    rules: () => ({ allow: [...allowRules], deny: [...denyRules] }),
  };
  return policy;
}
