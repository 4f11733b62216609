import { isAbsolute, relative, sep } from 'node:path';
import type { ApprovalRequest } from '@troupe/core';
import { suggestCommandRule } from '@troupe/core/internal';

/**
 * The narrower "always allow" rule to offer for a call, in Claude Code's syntax: `Bash(npm test:*)`
 * for one plain command (its program and sub-command; core's `suggestCommandRule`), `Edit(src/**)` for a file edit or write (its
 * folder). Undefined when no narrower rule fits (a chained command, a file outside the workspace).
 */
export function suggestScope(
  request: Pick<ApprovalRequest, 'tool' | 'input'>,
  root: string,
): string | undefined {
  const input = (request.input ?? {}) as Record<string, unknown>;
  if (request.tool === 'bash') {
    const command = typeof input.command === 'string' ? input.command.trim() : '';
    return command ? suggestCommandRule(command) : undefined;
  }
  if ((request.tool === 'write' || request.tool === 'edit') && typeof input.file_path === 'string') {
    const path = isAbsolute(input.file_path) ? relative(root, input.file_path) : input.file_path;
    const parts = path.split(sep).filter((part) => part !== '' && part !== '.');
    if (parts.length === 0 || parts.includes('..')) return undefined;
    return parts.length === 1 ? `Edit(${parts[0]})` : `Edit(${parts.slice(0, -1).join('/')}/**)`;
  }
  return undefined;
}
