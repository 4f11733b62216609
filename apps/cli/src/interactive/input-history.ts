import { appendFileSync, chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** How many entries are kept (the oldest are dropped beyond it). */
const MAX_ENTRIES = 1000;

/**
 * What was typed at the session prompt, kept in a file (one entry a line, oldest first, private
 * to the user) so the Up arrow reaches earlier sessions' messages, as in a shell. Answers to
 * questions (approvals, the agent wizard) are not entries. A file that cannot be read or written
 * costs the history, never the session: `warning` says why once.
 */
export class InputHistory {
  private last: string | undefined;
  private broken = false;
  /** Why the file could not be used, if it could not (shown once at start). */
  warning: string | undefined;

  constructor(readonly file: string) {}

  /** The saved entries, newest first (readline's order); trims the file to the newest entries. */
  load(): string[] {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.fail(error);
      return [];
    }
    const entries = text.split('\n').filter((line) => line.trim() !== '');
    const kept = entries.slice(-MAX_ENTRIES);
    if (kept.length < entries.length) {
      try {
        writeFileSync(this.file, `${kept.join('\n')}\n`, { mode: 0o600 });
      } catch (error) {
        this.fail(error);
      }
    }
    this.last = kept.at(-1);
    return kept.reverse();
  }

  /** Appends an entry (not a blank line, nor the same as the previous entry). */
  add(line: string): void {
    if (this.broken || line.trim() === '' || line === this.last || line.includes('\n')) return;
    this.last = line;
    try {
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      appendFileSync(this.file, `${line}\n`, { mode: 0o600 });
      chmodSync(this.file, 0o600);
    } catch (error) {
      this.fail(error);
    }
  }

  private fail(error: unknown): void {
    this.broken = true;
    this.warning = `Input history is off: cannot use ${this.file} (${(error as Error).message}).`;
  }
}

/** The number of entries readline keeps in memory (the Up arrow's reach). */
export const HISTORY_SIZE = MAX_ENTRIES;
