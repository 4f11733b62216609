import { formatDuration, formatTokens } from '@troupe/core';
import type { Colors } from './colors.js';
import { renderTable } from './table.js';

/** One row of a task table. */
export interface TaskRow {
  id: string;
  agent: string;
  description: string;
  status: string;
  terminateReason?: string;
  toolCalls: number;
  durationMs: number;
  tokens: number;
}

function statusText(row: TaskRow, colors: Colors): string {
  const reason = row.terminateReason && row.status === 'failed' ? ` (${row.terminateReason})` : '';
  const text = `${row.status}${reason}`;
  if (row.status === 'completed') return colors.green(text);
  if (row.status === 'failed') return colors.red(text);
  if (row.status === 'cancelled') return colors.yellow(text);
  return text;
}

/** A table of tasks: id (optional), agent, description, status, tools, time, tokens. */
export function taskTable(
  rows: readonly TaskRow[],
  colors: Colors,
  options: { ids?: boolean; descriptionWidth?: number } = {},
): string[] {
  const width = options.descriptionWidth ?? 48;
  const cut = (text: string) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);
  const columns = [
    ...(options.ids === false ? [] : [{ header: 'ID' }]),
    { header: 'AGENT' },
    { header: 'DESCRIPTION' },
    { header: 'STATUS' },
    { header: 'TOOLS', align: 'right' as const },
    { header: 'TIME', align: 'right' as const },
    { header: 'TOKENS', align: 'right' as const },
  ];
  return renderTable(
    columns,
    rows.map((row) => [
      ...(options.ids === false ? [] : [row.id]),
      row.agent,
      cut(row.description),
      statusText(row, colors),
      String(row.toolCalls),
      formatDuration(row.durationMs),
      formatTokens(row.tokens),
    ]),
    { header: colors.bold },
  );
}
