import type { ApprovalRequest } from '../events.js';
import type { ApprovalDecision } from '../runtime/approvals.js';
import {
  allowableCommands,
  allowRuleCoversCommand,
  commandOf,
  ruleVerdict,
} from './match-permission-rule.js';
import { type PermissionRule, parsePermissionRule } from './permission-rule.js';
import { analyseShellLine, type ShellLine } from './shell-line.js';

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
  /**
   * The first deny rule, else the allow rule, that covers a call, with the reason of a denial. A
   * deny rule covers a shell line when any command it would run is covered, or may be (an
   * expansion decides), or the line cannot be analysed with certainty (`eval`, a parse error, …).
   * Allow rules cover a shell line only when every command in it is covered (by one rule or
   * several; the first is named).
   */
  matching(
    request: Pick<ApprovalRequest, 'tool' | 'input'>,
  ): { rule: PermissionRule; effect: 'allow' | 'deny'; reason?: string } | undefined;
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
  // The last line analysed: decide() and the desk ask about the same call in a row.
  let last: { command: string; line: ShellLine } | undefined;
  const lineOf = (command: string | undefined): ShellLine | undefined => {
    if (command === undefined) return undefined;
    if (last?.command !== command) last = { command, line: analyseShellLine(command) };
    return last.line;
  };
  const policy: PermissionPolicy = {
    matching(request) {
      const line = lineOf(commandOf(request));
      const context = line === undefined ? where : { ...where, line };
      // A rule that certainly covers the call is named before one that may.
      let maybe: { rule: PermissionRule; effect: 'deny'; reason: string } | undefined;
      for (const rule of denyRules) {
        const found = ruleVerdict(rule, request, { ...context, effect: 'deny' });
        if (found.verdict === 'match') return { rule, effect: 'deny' };
        if (found.verdict === 'maybe') maybe ??= { rule, effect: 'deny', reason: found.why };
      }
      if (maybe) return maybe;
      const allowed = allowRules.find(
        (rule) => ruleVerdict(rule, request, { ...context, effect: 'allow' }).verdict === 'match',
      );
      if (allowed) return { rule: allowed, effect: 'allow' };
      // A compound line: every command covered by some allow rule.
      const commands = line && allowableCommands(line);
      if (!commands || commands.length < 2) return undefined;
      let first: PermissionRule | undefined;
      for (const command of commands) {
        const rule = allowRules.find((each) => allowRuleCoversCommand(each, request.tool, command));
        if (!rule) return undefined;
        first ??= rule;
      }
      return first ? { rule: first, effect: 'allow' } : undefined;
    },
    decide(request) {
      const found = policy.matching(request);
      if (found?.effect === 'deny')
        return {
          decision: 'deny',
          reason: `the permission rule ${found.rule.text} denies it${found.reason ? ` (${found.reason}; write the command so that what it runs is plain)` : ''}`,
        };
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
