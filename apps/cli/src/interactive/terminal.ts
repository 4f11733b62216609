import { createInterface, type Interface } from 'node:readline';
import type { Runtime } from '@troupe/core';
import type { CliIo, OutputStream } from '../io.js';
import { type Colors, colorsFor } from '../render/colors.js';
import { LiveScreen } from '../render/live-screen.js';
import { ProgressBoard } from '../render/progress-board.js';
import { PlainScreen, type Screen } from '../render/screen.js';
import { TeamFeed } from '../render/team-feed.js';
import { HISTORY_SIZE, type InputHistory } from './input-history.js';
import { Prompter } from './prompter.js';

/** Options of {@link Terminal}. */
export interface TerminalOptions {
  io: CliIo;
  /** Where progress and questions go (stdout for a session, stderr for `run`). */
  out: OutputStream;
  /** Read input lines (a session, or questions such as approvals). Default false. */
  input?: boolean;
  /** The normal prompt label of a session (`> `); questions replace it while they wait. */
  prompt?: string;
  /** Lines typed at the prompt, kept across sessions (the Up arrow); answers to questions are not kept. */
  history?: InputHistory;
}

/**
 * The CLI's terminal: colours, a screen (live region on a TTY, plain lines otherwise), an optional
 * readline for input lines, and the prompter that serialises questions over it. Input lines go to
 * the waiting question first, then to the handler set with {@link onLine}.
 */
export class Terminal {
  readonly colors: Colors;
  readonly screen: Screen;
  readonly prompter: Prompter;
  readonly rl: Interface | undefined;
  /** True when the output is a terminal (live lines, colours allowed). */
  readonly tty: boolean;
  /** True when questions are typed on a terminal (not read from a pipe). */
  readonly terminalInput: boolean;
  private readonly boards: ProgressBoard[] = [];
  /** Agent teams at work: a block of live lines each, below the task lines. */
  private readonly feeds: TeamFeed[] = [];
  /** More live lines, drawn below the boards' (the main agent's stream and spinner). */
  private readonly extraLines: ((width: number) => string[])[] = [];
  private readonly detachers: (() => void)[] = [];
  private readonly basePrompt: string | undefined;
  private currentPrompt = '';
  private promptShown = false;
  private closed = false;
  private lineHandler: ((line: string) => void | Promise<void>) | undefined;
  private endHandler: (() => void) | undefined;
  /** Piped input: lines not handled yet, handled one at a time (see {@link pump}). */
  private readonly buffer: string[] = [];
  private working = false;
  private inputEnded = false;
  private endReported = false;
  private readonly history: InputHistory | undefined;
  /** A waiting question is drawn at the bottom of the live region, right above its prompt. */
  private readonly pinQuestions: boolean;
  /** The history's warning already shown (a failure to load it is shown by the session at start). */
  private historyWarning: string | undefined;

  private readonly out: OutputStream;

  constructor(options: TerminalOptions) {
    const { io, out } = options;
    this.out = out;
    this.tty = out.isTTY === true;
    this.colors = colorsFor(out, io.env);
    this.basePrompt = options.prompt;
    this.terminalInput = options.input === true && io.stdin.isTTY === true && this.tty;
    if (options.input) {
      this.history = this.terminalInput ? options.history : undefined;
      this.rl = this.terminalInput
        ? createInterface({
            input: io.stdin,
            output: out as NodeJS.WritableStream,
            terminal: true,
            history: this.history?.load() ?? [],
            historySize: HISTORY_SIZE,
            removeHistoryDuplicates: true,
          })
        : createInterface({ input: io.stdin, terminal: false });
      this.historyWarning = this.history?.warning;
      this.rl.on('line', (line) => this.onInput(line));
      this.rl.on('close', () => {
        this.inputEnded = true;
        if (this.terminalInput) {
          if (!this.closed && !this.endReported) {
            this.endReported = true;
            this.endHandler?.();
          }
        } else this.pump();
      });
    }
    const rl = this.terminalInput ? this.rl : undefined;
    this.screen = this.tty
      ? new LiveScreen(out, {
          lines: (width) => [
            ...this.boards.flatMap((board) => board.liveLines(width)),
            ...this.feeds.flatMap((feed) => feed.liveLines(width)),
            ...this.extraLines.flatMap((lines) => lines(width)),
          ],
          pinned: () => this.pinnedQuestion(),
          ...(rl
            ? {
                prompt: {
                  rowsAboveCursor: () => rl.getCursorPos().rows,
                  redraw: () => rl.prompt(true),
                  visible: () => this.promptShown && !this.closed,
                },
              }
            : {}),
        })
      : new PlainScreen(out);
    this.pinQuestions = this.screen.live && this.terminalInput;
    this.prompter = new Prompter({
      // A pinned question is drawn with the live region (see pinnedQuestion), and printed once answered.
      show: (lines) => (this.pinQuestions ? this.screen.refresh() : this.screen.log(lines.join('\n'))),
      // Withdrawn (its task ended, Ctrl-C, exit): the pinned question stays readable in the scrollback.
      withdrawn: (lines) => {
        if (this.pinQuestions && !this.closed && lines.length) this.screen.log(lines.join('\n'));
      },
      setPrompt: (label) => this.setPrompt(label),
    });
  }

  /** Prints text above the live region. */
  log(text: string): void {
    this.screen.log(text);
  }

  /**
   * Input lines no question is waiting for. On a terminal each line is handled at once (the prompt
   * stays usable); from a pipe, lines are handled in order, each after the previous one's work
   * (the promise) is done, and a line goes to a question when one is waiting.
   */
  onLine(handler: (line: string) => void | Promise<void>): void {
    this.lineHandler = handler;
  }

  /** The end of input (Ctrl-D, or a pipe's end once every line was handled). */
  onEnd(handler: () => void): void {
    this.endHandler = handler;
  }

  /** Shows progress lines for a runtime's tasks. Returns the board (for `expanded`, `mainEnded`). */
  track(runtime: Runtime, options: { sessionKey?: string; mainBusy?: () => boolean } = {}): ProgressBoard {
    const board = new ProgressBoard({
      colors: this.colors,
      mode: this.screen.live ? 'live' : 'plain',
      log: (line) => this.screen.log(line),
      refresh: () => this.screen.refresh(),
      colorOf: (agent) => runtime.agents.get(agent)?.color,
      ...(options.sessionKey ? { sessionKey: options.sessionKey } : {}),
      ...(options.mainBusy ? { mainBusy: options.mainBusy } : {}),
    });
    this.detachers.push(board.attach(runtime));
    this.boards.push(board);
    return board;
  }

  /**
   * Shows a runtime's agent teams: their members and messages as they happen (see {@link TeamFeed}).
   * On a terminal a team's working members are its live lines, so `board` leaves their spells out.
   */
  trackTeams(runtime: Runtime, board: ProgressBoard, options: { sessionKey?: string } = {}): TeamFeed {
    const out = this.screen;
    const feed = new TeamFeed({
      colors: this.colors,
      log: (line) => out.log(line),
      refresh: () => out.refresh(),
      width: () => this.columns(),
      ...(options.sessionKey ? { sessionKey: options.sessionKey } : {}),
    });
    this.detachers.push(feed.attach(runtime));
    if (this.screen.live) {
      board.hidden = (taskId) => feed.isSpell(taskId);
      this.feeds.push(feed);
    }
    return feed;
  }

  /** Columns of the output: the terminal's width (80 if it does not say); no limit for a pipe or file. */
  columns(): number {
    if (!this.tty) return Number.MAX_SAFE_INTEGER;
    return Math.max(20, this.out.columns ?? 80);
  }

  /** Adds lines to the live region, below the task lines; returns the function that removes them. */
  addLiveLines(lines: (width: number) => string[]): () => void {
    this.extraLines.push(lines);
    return () => {
      const index = this.extraLines.indexOf(lines);
      if (index >= 0) this.extraLines.splice(index, 1);
    };
  }

  /** Stops showing a runtime's progress (before it is replaced). */
  untrack(board: ProgressBoard): void {
    const index = this.boards.indexOf(board);
    if (index < 0) return;
    this.boards.splice(index, 1);
    this.detachers.splice(index, 1)[0]?.();
    this.screen.refresh();
  }

  /** Shows the session prompt (TTY) and starts taking lines. */
  showPrompt(): void {
    if (!this.rl || this.closed || !this.terminalInput) return;
    if (!this.prompter.busy) this.applyPrompt(this.basePrompt ?? '');
    this.promptShown = true;
    this.screen.refresh();
  }

  /** Clears what the user has typed so far (Ctrl-C). */
  clearInput(): void {
    if (!this.rl || !this.terminalInput) return;
    this.rl.write(null, { ctrl: true, name: 'e' });
    this.rl.write(null, { ctrl: true, name: 'u' });
  }

  /** Stops redrawing and closes the input. */
  close(): void {
    if (this.closed) return;
    this.prompter.withdrawAll();
    this.closed = true;
    for (const detach of this.detachers.splice(0)) detach();
    this.boards.length = 0;
    this.feeds.length = 0;
    this.screen.close();
    this.rl?.close();
  }

  private onInput(line: string): void {
    if (!this.terminalInput) {
      this.buffer.push(line);
      this.pump();
      return;
    }
    this.screen.submitted(this.currentPrompt + line, this.pinnedQuestion());
    if (this.prompter.answer(line)) {
      // An answer (y, n, a field of the wizard) is not something to recall with the Up arrow.
      const recalled = (this.rl as unknown as { history?: string[] }).history;
      if (recalled?.[0] === line) recalled.shift();
      return;
    }
    this.remember(line);
    void this.lineHandler?.(line);
  }

  /** The waiting question's lines, when questions are pinned above the prompt. */
  private pinnedQuestion(): string[] {
    if (!this.pinQuestions || this.closed) return [];
    return this.prompter.currentLines.flatMap((line) => line.split('\n'));
  }

  private remember(line: string): void {
    const history = this.history;
    if (!history) return;
    history.add(line);
    if (history.warning && history.warning !== this.historyWarning) {
      this.historyWarning = history.warning;
      this.log(this.colors.yellow(history.warning));
    }
  }

  /** Feeds piped lines to the waiting question or, one at a time, to the line handler. */
  private pump(): void {
    for (;;) {
      if (this.prompter.busy) {
        const line = this.buffer.shift();
        if (line !== undefined) {
          this.prompter.answer(line);
          continue;
        }
        // Nobody can answer any more: the question resolves without an answer.
        if (this.inputEnded) this.prompter.withdrawAll();
        return;
      }
      if (this.working) return;
      const line = this.buffer.shift();
      if (line !== undefined) {
        this.working = true;
        void Promise.resolve(this.lineHandler?.(line)).finally(() => {
          this.working = false;
          this.pump();
        });
        continue;
      }
      if (this.inputEnded && !this.endReported) {
        this.endReported = true;
        this.endHandler?.();
      }
      return;
    }
  }

  private applyPrompt(label: string): void {
    this.currentPrompt = label;
    this.rl?.setPrompt(label);
  }

  private setPrompt(label: string | undefined): void {
    if (!this.rl || this.closed) return;
    if (!this.terminalInput) {
      // Questions read from a pipe: print the question's prompt as a line, then answer it.
      if (label !== undefined) {
        this.screen.log(label.trimEnd());
        queueMicrotask(() => this.pump());
      }
      return;
    }
    if (label !== undefined) {
      this.applyPrompt(label);
      this.promptShown = true;
    } else if (this.basePrompt !== undefined) {
      this.applyPrompt(this.basePrompt);
    } else {
      this.promptShown = false;
    }
    this.screen.refresh();
  }
}
