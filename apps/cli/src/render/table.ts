import { pad, visibleWidth } from './text.js';

/** A column of {@link renderTable}. */
export interface Column {
  header: string;
  align?: 'left' | 'right';
}

/**
 * A plain-text table: a header row, a rule, then the rows, columns separated by two spaces and
 * padded to the widest cell (escape codes do not count). Returns the lines.
 */
export function renderTable(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
  style: { header?: (text: string) => string } = {},
): string[] {
  const widths = columns.map((column, index) =>
    Math.max(visibleWidth(column.header), ...rows.map((row) => visibleWidth(row[index] ?? ''))),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) => pad(cell, widths[index]!, columns[index]!.align))
      .join('  ')
      .trimEnd();
  const header = line(columns.map((column) => column.header));
  return [
    style.header ? style.header(header) : header,
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...rows.map(line),
  ];
}
