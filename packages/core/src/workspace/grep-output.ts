import type { GrepFileResult } from './grep-types.js';
import { displayLine } from './text.js';

/** How {@link GrepOutput} formats and limits results. */
export interface GrepOutputOptions {
  mode: 'content' | 'files_with_matches' | 'count';
  withContext: boolean;
  lineNumbers: boolean;
  headLimit: number | undefined;
  maxChars: number;
  maxLineChars: number;
}

/**
 * Formats grep results for the model and tells the engine when it has enough: at `headLimit`
 * entries (lines, files or counts) or once `maxChars` characters are filled.
 */
export class GrepOutput {
  private readonly entries: string[] = [];
  private chars = 0;
  private files = 0;
  private matches = 0;
  private counted = 0;
  private stoppedBy: 'head_limit' | 'size' | undefined;

  constructor(private readonly options: GrepOutputOptions) {}

  /** Takes one file's result; returns `false` when no more are wanted. */
  add = (result: GrepFileResult): boolean => {
    if (this.stoppedBy) return false;
    this.files++;
    this.matches += result.count;
    const { mode } = this.options;
    if (mode === 'files_with_matches') return this.push(result.path);
    if (mode === 'count') return this.push(`${result.path}:${result.count}`);
    let previous = -1;
    for (const line of result.lines) {
      if (this.options.withContext && this.entries.length > 0 && line.line !== previous + 1) {
        this.entries.push('--');
      }
      previous = line.line;
      const separator = line.match ? ':' : '-';
      const number = this.options.lineNumbers ? `${line.line}${separator}` : '';
      const text = displayLine(line.text, this.options.maxLineChars);
      if (!this.push(`${result.path}${separator}${number}${text}`)) return false;
    }
    return true;
  };

  private push(entry: string): boolean {
    this.entries.push(entry);
    this.counted++;
    this.chars += entry.length + 1;
    const { headLimit, maxChars } = this.options;
    if (headLimit !== undefined && this.counted >= headLimit) this.stoppedBy = 'head_limit';
    else if (this.chars >= maxChars) this.stoppedBy = 'size';
    return this.stoppedBy === undefined;
  }

  /** The text for the model. */
  text(): string {
    if (this.entries.length === 0) return 'No matches found.';
    const { mode } = this.options;
    let body = this.entries.join('\n');
    if (body.length > this.options.maxChars) {
      const end = body.lastIndexOf('\n', this.options.maxChars);
      body = body.slice(0, end > 0 ? end : this.options.maxChars);
    }
    let note = '';
    if (this.stoppedBy === 'head_limit') {
      note = `\n\n[Stopped at head_limit ${this.options.headLimit}: more results may follow.]`;
    } else if (this.stoppedBy === 'size') {
      note = `\n\n[Output truncated at ${this.options.maxChars.toLocaleString('en-US')} characters: more results follow. Narrow the pattern, path or glob, or use head_limit.]`;
    }
    if (mode === 'files_with_matches') {
      const found = this.stoppedBy ? `${this.files}+` : `${this.files}`;
      return `Found ${found} ${this.files === 1 ? 'file' : 'files'}\n${body}${note}`;
    }
    if (mode === 'count') {
      return `${body}\n\nTotal: ${this.matches} matching lines in ${this.files} files${this.stoppedBy ? ' shown' : ''}.${note}`;
    }
    return `${body}${note}`;
  }
}
