import type { OutputStream } from '../io.js';

/** Where the CLI prints: log lines scroll up; a TTY screen also keeps a live region of status lines. */
export interface Screen {
  /** True when lines are redrawn in place (a terminal). */
  readonly live: boolean;
  /**
   * A line the user submitted was echoed by readline (prompt + input). `before` is printed above
   * it (the question it answers, which was shown in the live region while it waited).
   */
  submitted(text: string, before?: readonly string[]): void;
  /** Prints a block of text above the live region (or just prints it). */
  log(text: string): void;
  /** Redraws the live region now. */
  refresh(): void;
  /** Clears the live region and stops redrawing. */
  close(): void;
}

/** A screen for pipes and CI: plain lines, no escape codes, nothing redrawn. */
export class PlainScreen implements Screen {
  readonly live = false;
  constructor(private readonly out: OutputStream) {}
  log(text: string): void {
    this.out.write(`${text}\n`);
  }
  refresh(): void {}
  submitted(): void {}
  close(): void {}
}
