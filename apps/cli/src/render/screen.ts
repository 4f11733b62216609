import type { OutputStream } from '../io.js';
import { truncate, visibleWidth } from './text.js';

/** Where the CLI prints: log lines scroll up; a TTY screen also keeps a live region of status lines. */
export interface Screen {
  /** True when lines are redrawn in place (a terminal). */
  readonly live: boolean;
  /** A line the user submitted was echoed by readline (prompt + input). */
  submitted(text: string): void;
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

/** The readline prompt a live screen keeps below its region (see {@link LiveScreen}). */
export interface PromptLine {
  /** Rows the prompt and input take above the cursor (0 for a one-line input). */
  rowsAboveCursor(): number;
  /** Writes the prompt and the current input again. */
  redraw(): void;
  /** False while no prompt is on screen (before the first one, or after close). */
  visible(): boolean;
}

/** Options of {@link LiveScreen}. */
export interface LiveScreenOptions {
  /** The status lines to show now (called on every redraw). */
  lines: (width: number) => string[];
  /** A readline prompt under the region, redrawn after it. */
  prompt?: PromptLine;
  /** Redraw period while the region is not empty, in ms (elapsed times tick). Default 250. */
  tickMs?: number;
}

const CLEAR_DOWN = '\x1b[J';

/**
 * A terminal screen: log lines scroll above a region of status lines that is redrawn in place
 * (cursor up, clear down, write), with the readline prompt (if any) kept below it and redrawn
 * with the user's input intact. Lines are cut to the terminal width so the region never wraps,
 * and the region is capped to the terminal height.
 */
export class LiveScreen implements Screen {
  readonly live = true;
  private drawn = 0;
  /** Rows between the region and the cursor that readline wrote (submitted lines). */
  private extraRows = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private closed = false;

  constructor(
    private readonly out: OutputStream,
    private readonly options: LiveScreenOptions,
  ) {}

  log(text: string): void {
    this.draw(`${text}\n`);
  }

  refresh(): void {
    this.draw('');
  }

  /**
   * readline echoed a submitted line (prompt + input) and moved to a new line below it: rewrite it
   * as a log line above the region, so the region stays contiguous.
   */
  submitted(text: string): void {
    const width = Math.max(1, this.out.columns ?? 80);
    this.extraRows += Math.max(1, Math.ceil(visibleWidth(text) / width));
    this.log(text);
  }

  close(): void {
    if (this.closed) return;
    this.stopTicking();
    const rows = this.promptRows();
    this.out.write(this.moveToRegion(rows));
    this.drawn = 0;
    this.closed = true;
  }

  private promptRows(): number {
    const prompt = this.options.prompt;
    return prompt?.visible() ? prompt.rowsAboveCursor() : 0;
  }

  private moveToRegion(promptRows: number): string {
    const up = this.drawn + promptRows + this.extraRows;
    this.extraRows = 0;
    return `\r${up > 0 ? `\x1b[${up}A` : ''}${CLEAR_DOWN}`;
  }

  private draw(logText: string): void {
    if (this.closed) {
      if (logText) this.out.write(logText);
      return;
    }
    const width = Math.max(10, (this.out.columns ?? 80) - 1);
    const height = Math.max(4, (this.out.rows ?? 24) - 3);
    let lines = this.options.lines(width).map((line) => truncate(line, width));
    if (lines.length > height) {
      const hidden = lines.length - (height - 1);
      lines = [...lines.slice(0, height - 1), `… and ${hidden} more`];
    }
    const prompt = this.options.prompt;
    const promptRows = this.promptRows();
    let text = this.moveToRegion(promptRows) + logText;
    for (const line of lines) text += `${line}\n`;
    this.drawn = lines.length;
    // readline moves up by the rows it drew before redrawing the prompt: give it those rows back.
    text += '\n'.repeat(promptRows);
    this.out.write(text);
    if (prompt?.visible()) prompt.redraw();
    if (lines.length > 0) this.startTicking();
    else this.stopTicking();
  }

  private startTicking(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.refresh(), this.options.tickMs ?? 250);
    this.timer.unref?.();
  }

  private stopTicking(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
