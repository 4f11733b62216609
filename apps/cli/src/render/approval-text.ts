import type { ApprovalRequest } from '@troupe/core';
import { diffLines, fileChangeOf } from './approval-diff.js';
import type { Colors } from './colors.js';
import { taskLabel } from './task-line.js';
import { indent } from './text.js';

/**
 * The lines of an approval prompt: who asks (agent and task), which tool, and what it would do: the
 * command of `bash`, a coloured diff of `write` and `edit` against the file as it is now (read with
 * `readFile`, a workspace-relative or absolute path; undefined when it does not exist), and any
 * other tool's full input, field by field.
 */
export function approvalLines(
  request: ApprovalRequest,
  colors: Colors,
  options: { readFile?: (path: string) => string | undefined } = {},
): string[] {
  const lines = [
    `${colors.yellow('Approval needed:')} ${taskLabel(request, colors)} wants to run ${colors.bold(request.tool)} (${request.access})${request.background ? colors.dim(' [background task]') : ''}`,
  ];
  const input = (request.input ?? {}) as Record<string, unknown>;
  if (request.tool === 'bash' && typeof input.command === 'string') {
    lines.push(
      ...input.command.split('\n').map((line, index) => `  ${index === 0 ? '$' : '>'} ${colors.bold(line)}`),
    );
    const { command: _command, ...rest } = input;
    if (Object.keys(rest).length) lines.push(...inputLines(rest).map((line) => colors.dim(`  ${line}`)));
    return lines;
  }
  const path = typeof input.file_path === 'string' ? input.file_path : undefined;
  const change =
    path !== undefined && options.readFile
      ? fileChangeOf(request.tool, request.input, options.readFile(path))
      : undefined;
  if (change) {
    lines.push(...diffLines(change, colors).map((line) => `  ${line}`));
    return lines;
  }
  lines.push(...inputLines(request.input).map((line) => `  ${line}`));
  return lines;
}

/** The full input of a tool call, one field per line (long text as an indented block). */
export function inputLines(input: unknown): string[] {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return [JSON.stringify(input, null, 2) ?? String(input)].flatMap((text) => text.split('\n'));
  }
  const lines: string[] = [];
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (typeof value === 'string' && value.includes('\n')) {
      lines.push(`${key}:`, indent(value.replace(/\n$/, ''), '  │ '));
    } else if (typeof value === 'string') {
      lines.push(`${key}: ${value}`);
    } else {
      const json = JSON.stringify(value, null, 2) ?? String(value);
      if (json.includes('\n')) lines.push(`${key}:`, indent(json, '    '));
      else lines.push(`${key}: ${json}`);
    }
  }
  return lines.length ? lines.join('\n').split('\n') : ['(no input)'];
}

/** The prompt shown while an approval waits for an answer (with a narrower rule to offer, if any). */
export function approvalPrompt(tool: string, scope?: string): string {
  return scope
    ? `Approve? [y]es / [n]o / [a]lways allow ${tool} / [p] always allow ${scope} this session: `
    : `Approve? [y]es / [n]o / [a]lways allow ${tool} this session: `;
}
