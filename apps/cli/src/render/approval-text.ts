import type { ApprovalRequest } from '@troupe/core';
import type { Colors } from './colors.js';
import { taskLabel } from './task-line.js';
import { indent } from './text.js';

/**
 * The lines of an approval prompt: who asks (agent and task), which tool, and its full input,
 * field by field (multi-line strings as indented blocks, other values as JSON).
 */
export function approvalLines(request: ApprovalRequest, colors: Colors): string[] {
  const lines = [
    `${colors.yellow('Approval needed:')} ${taskLabel(request, colors)} wants to run ${colors.bold(request.tool)} (${request.access})${request.background ? colors.dim(' [background task]') : ''}`,
  ];
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

/** The prompt shown while an approval waits for an answer. */
export function approvalPrompt(tool: string): string {
  return `Approve? [y]es / [n]o / [a]lways allow ${tool} this session: `;
}
