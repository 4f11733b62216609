import type { ApprovalRequest } from '../events.js';
import { allowCovers, denyVerdict, sameCommandText } from './match-command-rule.js';
import { COMMAND_TOOLS, type PermissionRule } from './permission-rule.js';
import { analyseShellLine, type ShellCommand, type ShellLine } from './shell-line.js';
import { workspaceRelativePath } from './workspace-path.js';

/** Rule tool names that cover several troupe tools (Claude Code's `Edit` covers every file edit). */
const TOOL_FAMILIES: Record<string, readonly string[]> = {
  edit: ['edit', 'write', 'multiedit', 'notebookedit'],
};

function coversTool(rule: PermissionRule, tool: string): boolean {
  const name = tool.toLowerCase();
  if (rule.tool === name) return true;
  if (TOOL_FAMILIES[rule.tool]?.includes(name)) return true;
  // `mcp__server` covers every tool of that server.
  return (
    rule.tool.startsWith('mcp__') && !rule.tool.slice(5).includes('__') && name.startsWith(`${rule.tool}__`)
  );
}

/** A glob (`**` any path, `*` any name part, `?` one character) as an anchored regular expression. */
function globRegExp(pattern: string, flags: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === '*' && pattern[index + 1] === '*') {
      const slash = pattern[index + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      index += slash ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  // A pattern naming a folder covers what is inside it.
  return new RegExp(`^${source}(?:/.*)?$`, flags);
}

/** The workspace-relative path of a file tool's input (`file_path` or `path`), if it has one inside the workspace. */
function relativePath(input: unknown, root: string | undefined): string | undefined {
  const fields = input as { file_path?: unknown; path?: unknown } | null;
  const raw = typeof fields?.file_path === 'string' ? fields.file_path : fields?.path;
  return typeof raw === 'string' ? workspaceRelativePath(raw, root) : undefined;
}

/** The shell line of a command tool's input, if the request is a command tool's. */
export function commandOf(request: Pick<ApprovalRequest, 'tool' | 'input'>): string | undefined {
  if (!COMMAND_TOOLS.has(request.tool.toLowerCase())) return undefined;
  const command = (request.input as { command?: unknown } | null)?.command;
  return typeof command === 'string' ? command : undefined;
}

/** How a rule meets a call: it covers it, it may (a deny rule facing what cannot be told), or not. */
type RuleVerdict = { verdict: 'match' } | { verdict: 'maybe'; why: string } | { verdict: 'none' };

const NONE: RuleVerdict = { verdict: 'none' };
const MATCH: RuleVerdict = { verdict: 'match' };

/**
 * How `rule` meets the call `request` asks about, read as a rule of `effect`.
 *
 * A command rule is matched against every simple command the shell line would run (see
 * {@link analyseShellLine}). As a deny rule it meets the line when any command does, and `maybe`
 * when a command may (an expansion decides a word) or the line cannot be analysed with certainty.
 * As an allow rule it covers one plain command with the rule's words (a prefix rule: followed by
 * any arguments); {@link createPermissionPolicy} covers a compound line only when every command is
 * covered. A path rule matches the normalised workspace-relative path; as a deny rule regardless of
 * letter case (case-insensitive file systems), never a path that leaves the workspace.
 */
export function ruleVerdict(
  rule: PermissionRule,
  request: Pick<ApprovalRequest, 'tool' | 'input'>,
  options: { root?: string; effect: 'allow' | 'deny'; line?: ShellLine },
): RuleVerdict {
  if (!coversTool(rule, request.tool)) return NONE;
  const scope = rule.scope;
  if (!scope) return MATCH;
  if (scope.kind === 'command' || scope.kind === 'command-prefix') {
    const command = commandOf(request);
    if (command === undefined) return NONE;
    if (sameCommandText(rule, command)) return MATCH;
    const line = options.line ?? analyseShellLine(command);
    if (options.effect === 'allow')
      return allowableCommands(line)?.every((each) => allowCovers(scope, each)) ? MATCH : NONE;
    if (line.unanalysable !== undefined)
      return { verdict: 'maybe', why: `the command cannot be checked with certainty: ${line.unanalysable}` };
    let maybe: RuleVerdict = NONE;
    for (const each of line.commands) {
      const verdict = denyVerdict(scope, each);
      if (verdict === 'match') return MATCH;
      if (verdict === 'maybe' && maybe.verdict === 'none')
        maybe = {
          verdict: 'maybe',
          why: `the command cannot be checked with certainty: \`${shownWords(each)}\` may run it, as an expansion decides its words`,
        };
    }
    return maybe;
  }
  const path = relativePath(request.input, options.root);
  if (path === undefined) return NONE;
  const pattern = scope.pattern.replace(/^\/+/, '').replace(/\/+$/, '');
  return globRegExp(pattern, options.effect === 'deny' ? 'is' : 's').test(path) ? MATCH : NONE;
}

/** The commands allow rules may cover one by one, or undefined when no allow rule covers the line. */
export function allowableCommands(line: ShellLine): readonly ShellCommand[] | undefined {
  if (line.unanalysable !== undefined || line.writesFiles || line.commands.length === 0) return undefined;
  return line.commands;
}

/** True when allow rule `rule` covers one command of a line of command tool `tool`. */
export function allowRuleCoversCommand(rule: PermissionRule, tool: string, command: ShellCommand): boolean {
  const scope = rule.scope;
  if (!coversTool(rule, tool)) return false;
  if (!scope) return true;
  return (scope.kind === 'command' || scope.kind === 'command-prefix') && allowCovers(scope, command);
}

function shownWords(command: ShellCommand): string {
  const shown = command.words.map((word) => word ?? '…').join(' ');
  return command.openEnded ? `${shown} …` : shown;
}

/**
 * True when `rule` alone covers the call `request` asks about, read as an allow rule (or, with
 * `effect: 'deny'`, as a deny rule, where a call it may cover counts as covered). See
 * {@link ruleVerdict}.
 */
export function permissionRuleMatches(
  rule: PermissionRule,
  request: Pick<ApprovalRequest, 'tool' | 'input'>,
  options: { root?: string; effect?: 'allow' | 'deny' } = {},
): boolean {
  const where = options.root === undefined ? {} : { root: options.root };
  return ruleVerdict(rule, request, { ...where, effect: options.effect ?? 'allow' }).verdict !== 'none';
}
