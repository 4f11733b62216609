import type { OutputStream } from '../io.js';
import type { Screen } from './screen.js';
import { truncate, visibleWidth, wrapVisible } from './text.js';

/** The readline prompt a live screen keeps below its region (see {@link LiveScreen}). */
interface PromptLine {
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
  /**
   * Lines drawn last, right above the prompt, and kept whole when the region is too tall (the task
   * lines give way first): a question waiting for its answer.
   */
  pinned?: (width: number) => string[];
  /** A readline prompt under the region, redrawn after it. */
  prompt?: PromptLine;
  /** Redraw period while the region is not empty, in ms (elapsed times tick). Default 250. */
  tickMs?: number;
}

const ERASE_LINE = '\x1b[2K';
const ERASE_TO_END = '\x1b[K';

/** At most `rows` lines: the first ones, then `… and N more` in place of the rest. */
function capped(lines: readonly string[], rows: number): string[] {
  if (lines.length <= rows) return [...lines];
  if (rows <= 0) return [];
  return [...lines.slice(0, rows - 1), `… and ${lines.length - (rows - 1)} more`];
}

/** Moves the cursor up `rows` rows (nothing for 0). */
function up(rows: number): string {
  return rows > 0 ? `\x1b[${rows}A` : '';
}

/**
 * A terminal screen: log lines scroll above a region of status lines that is redrawn in place,
 * with the readline prompt (if any) kept below it and redrawn with the user's input intact.
 * Redrawing never clears the screen (tmux, among others, pushes a screen cleared from its top
 * into the scrollback): the cursor goes up to the region, each row is overwritten, and rows the
 * new drawing does not reach are blanked. Region lines are cut to the terminal width so they never
 * wrap, and the region is capped to the terminal height.
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
    this.draw(text.split('\n'));
  }

  refresh(): void {
    this.draw([]);
  }

  /**
   * readline echoed a submitted line (prompt + input) and moved to a new line below it: rewrite it
   * as a log line above the region, so the region stays contiguous.
   */
  submitted(text: string, before: readonly string[] = []): void {
    this.extraRows += this.rowsOf(text);
    this.draw([...before, text]);
  }

  close(): void {
    if (this.closed) return;
    this.stopTicking();
    // Blank the region (and the prompt rows) and leave the cursor where the region began.
    const above = this.rowsAboveCursor();
    this.out.write(`\r${up(above)}${this.blank(above + 1)}`);
    this.drawn = 0;
    this.closed = true;
  }

  private columns(): number {
    return Math.max(1, this.out.columns ?? 80);
  }

  /** Rows from the top of the region to the cursor's row (region, prompt, echoed lines). */
  private rowsAboveCursor(): number {
    const prompt = this.options.prompt;
    const promptRows = prompt?.visible() ? prompt.rowsAboveCursor() : 0;
    const rows = this.drawn + promptRows + this.extraRows;
    this.extraRows = 0;
    return rows;
  }

  /** Blanks `count` rows from the cursor's down, then moves back up to the first of them. */
  private blank(count: number): string {
    if (count <= 0) return '';
    let text = ERASE_LINE;
    for (let index = 1; index < count; index++) text += `\x1b[1B${ERASE_LINE}`;
    return text + up(count - 1);
  }

  /** Rows a line takes on the terminal (long lines wrap). */
  private rowsOf(line: string): number {
    return Math.max(1, Math.ceil(visibleWidth(line) / this.columns()));
  }

  /** A line written over whatever was there: its row erased first, and its tail after a wrap. */
  private overwrite(line: string): string {
    const width = visibleWidth(line);
    const columns = this.columns();
    const tail = width > columns && width % columns !== 0 ? ERASE_TO_END : '';
    return `${ERASE_LINE}${line}${tail}\n`;
  }

  private draw(logLines: readonly string[]): void {
    if (this.closed) {
      if (logLines.length) this.out.write(`${logLines.join('\n')}\n`);
      return;
    }
    const width = Math.max(10, this.columns() - 1);
    const height = Math.max(4, (this.out.rows ?? 24) - 3);
    // A question is read in full: its long lines wrap instead of being cut.
    const pinned = capped(
      (this.options.pinned?.(width) ?? []).flatMap((line) => wrapVisible(line, width)),
      height,
    );
    const lines = [...capped(this.options.lines(width), height - pinned.length), ...pinned].map((line) =>
      truncate(line, width),
    );
    const prompt = this.options.prompt;
    const visible = prompt?.visible() === true;
    const promptRows = visible ? prompt!.rowsAboveCursor() : 0;
    const above = this.rowsAboveCursor();
    let text = `\r${up(above)}`;
    let written = 0;
    for (const line of [...logLines, ...lines]) {
      text += this.overwrite(line);
      written += this.rowsOf(line);
    }
    // The old drawing used rows 0..above; blank those the new one did not overwrite.
    text += this.blank(above + 1 - written);
    this.drawn = lines.length;
    // readline moves up by the rows it drew before redrawing the prompt: give it those rows back.
    text += '\n'.repeat(promptRows);
    this.out.write(text);
    if (visible) prompt!.redraw();
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
