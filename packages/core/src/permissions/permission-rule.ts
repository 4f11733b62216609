import { ValidationError } from '../errors.js';

/**
 * A permission rule in Claude Code's syntax: a tool name (`Bash`, `Write`, `mcp__github`), or a
 * tool with a specifier in parentheses: a command (`Bash(npm test)`), a command prefix
 * (`Bash(npm test:*)`), or a path pattern relative to the workspace (`Edit(src/**)`,
 * `Write(docs/*.md)`).
 */
export interface PermissionRule {
  /** The rule as written. */
  text: string;
  /** The tool name as written, lower-cased (`bash`, `edit`, `mcp__github`). */
  tool: string;
  /** What the specifier says, if any. */
  scope?:
    | { kind: 'command'; command: string }
    | { kind: 'command-prefix'; prefix: string }
    | { kind: 'path'; pattern: string };
}

/** Tools whose specifier is a shell command. */
export const COMMAND_TOOLS = new Set(['bash']);

const RULE = /^([A-Za-z_][\w.-]*)(?:\((.*)\))?$/s;

/**
 * Parses one rule. Throws {@link ValidationError} naming the rule when it is not `Tool` or
 * `Tool(specifier)`, or when its specifier is empty.
 */
export function parsePermissionRule(text: string): PermissionRule {
  const trimmed = typeof text === 'string' ? text.trim() : '';
  const match = RULE.exec(trimmed);
  if (!match) {
    throw new ValidationError(
      `Permission rule ${JSON.stringify(text)} is not valid: write a tool name (Bash, Write, mcp__server) or a tool with a specifier (Bash(npm test:*), Edit(src/**)).`,
      [`rule: expected Tool or Tool(specifier), got ${JSON.stringify(text)}`],
    );
  }
  const tool = match[1]!.toLowerCase();
  const specifier = match[2];
  if (specifier === undefined) return { text: trimmed, tool };
  const inner = specifier.trim();
  if (inner === '' || inner === '*') return { text: trimmed, tool };
  if (COMMAND_TOOLS.has(tool)) {
    return inner.endsWith(':*')
      ? { text: trimmed, tool, scope: { kind: 'command-prefix', prefix: inner.slice(0, -2).trim() } }
      : { text: trimmed, tool, scope: { kind: 'command', command: inner } };
  }
  return { text: trimmed, tool, scope: { kind: 'path', pattern: inner.replace(/^\.\//, '') } };
}
