import type { JournalEntry, StoreWarning } from '../persistence/types.js';
import type { StoredLine } from './storage-port.js';

/**
 * A journal as stored, reduced to the entries a task can be rebuilt from: entries 0, 1, 2, ... in
 * order. A repeated entry is skipped; a gap ends the journal there (what follows cannot be
 * applied). Each problem is a `PERSISTENCE_CORRUPT` warning naming `where` and the line; warnings
 * come back sorted by line.
 */
export function journalInOrder(
  stored: readonly StoredLine<JournalEntry>[],
  warnings: StoreWarning[],
  where: string,
  path?: string,
): { entries: JournalEntry[]; warnings: StoreWarning[] } {
  const entries: JournalEntry[] = [];
  for (const { value, line } of stored) {
    if (value.seq === entries.length) {
      entries.push(value);
      continue;
    }
    const problem =
      value.seq < entries.length
        ? `seq ${value.seq} repeats an earlier entry; the line was skipped.`
        : `seq ${value.seq} follows seq ${entries.length - 1}: entries are missing, so this line and the rest of the journal were skipped.`;
    const warning: StoreWarning = {
      code: 'PERSISTENCE_CORRUPT',
      message: `${where}${line === undefined ? '' : `:${line}`}: ${problem}`,
    };
    if (path !== undefined) warning.path = path;
    if (line !== undefined) warning.line = line;
    warnings.push(warning);
    if (value.seq > entries.length) break;
  }
  warnings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { entries, warnings };
}
