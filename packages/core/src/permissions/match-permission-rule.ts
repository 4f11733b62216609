import type { ApprovalRequest } from '../events.js';
import { COMMAND_TOOLS, type PermissionRule } from './permission-rule.js';

/** Rule tool names that cover several troupe tools (Claude Code's `Edit` covers every file edit). */
const TOOL_FAMILIES: Record<string, readonly string[]> = {
  edit: ['edit', 'write', 'multiedit', 'notebookedit'],
};

/** Shell syntax that chains or redirects: a prefix rule never covers a command containing it. */
const SHELL_OPERATORS = /[;&|<>`\n\r]|\$\(/;

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
function globRegExp(pattern: string): RegExp {
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
  return new RegExp(`^${source}(?:/.*)?$`);
}

/**
 * The workspace-relative path of a file tool's input (`file_path` or `path`), or undefined when it
 * has none or it leaves the workspace (`..`, another absolute root).
 */
function relativePath(input: unknown, root: string | undefined): string | undefined {
  const fields = input as { file_path?: unknown; path?: unknown } | null;
  const raw = typeof fields?.file_path === 'string' ? fields.file_path : fields?.path;
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  let path = raw.trim().replace(/\\/g, '/');
  if (path.startsWith('/')) {
    const base = root?.replace(/\\/g, '/').replace(/\/+$/, '');
    if (!base || !path.startsWith(`${base}/`)) return undefined;
    path = path.slice(base.length + 1);
  }
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') return undefined;
    parts.push(part);
  }
  return parts.join('/');
}

/**
 * True when `rule` covers the call `request` asks about. A command rule matches the whole command;
 * a prefix rule matches the command or the command followed by arguments, never a command that
 * chains or redirects (`npm test && rm -rf x`); a path rule matches the file's workspace-relative
 * path, never one that leaves the workspace.
 */
export function permissionRuleMatches(
  rule: PermissionRule,
  request: Pick<ApprovalRequest, 'tool' | 'input'>,
  options: { root?: string } = {},
): boolean {
  if (!coversTool(rule, request.tool)) return false;
  const scope = rule.scope;
  if (!scope) return true;
  if (scope.kind === 'command' || scope.kind === 'command-prefix') {
    if (!COMMAND_TOOLS.has(request.tool.toLowerCase())) return false;
    const command = (request.input as { command?: unknown } | null)?.command;
    if (typeof command !== 'string') return false;
    const given = command.trim().replace(/\s+/g, ' ');
    if (scope.kind === 'command') return given === scope.command.trim().replace(/\s+/g, ' ');
    if (SHELL_OPERATORS.test(command.trim())) return false;
    const prefix = scope.prefix.replace(/\s+/g, ' ');
    return given === prefix || given.startsWith(`${prefix} `);
  }
  const path = relativePath(request.input, options.root);
  if (path === undefined) return false;
  return globRegExp(scope.pattern.replace(/^\/+/, '').replace(/\/+$/, '')).test(path);
}
