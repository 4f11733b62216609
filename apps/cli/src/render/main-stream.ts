import { formatTokens, type Runtime, type RuntimeEvents } from '@troupe/core';
import type { Colors } from './colors.js';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Options of {@link MainStream}. */
export interface MainStreamOptions {
  colors: Colors;
  /** Only the main agent of this session is streamed. */
  sessionKey: string;
  /** Prints lines above the live region. */
  log: (text: string) => void;
  /** Asks for a redraw of the live region. */
  refresh: () => void;
  /** True while the main agent is working. */
  busy: () => boolean;
  now?: () => number;
}

/**
 * The main agent's text as it is generated: each finished line is printed at once (interim text
 * before a tool call included), the unfinished one is shown in the live region, and a spinner line
 * says how long the run has taken and how many tokens it used. The model's reasoning, when the
 * adapter streams it (extended thinking), is shown the same way under a `✻ Thinking` header, dimmed
 * and indented, and the spinner says `Thinking…` meanwhile. {@link takeStreamed} tells the session
 * whether a reply's text is already on screen.
 */
export class MainStream {
  private partial = '';
  /** What the last delta was: reasoning is styled apart from the answer. */
  private kind: 'text' | 'thinking' = 'text';
  private streamed = false;
  private run: { taskId: string; startedAt: number; tokens: number; turnChars: number } | undefined;
  private readonly now: () => number;

  constructor(private readonly options: MainStreamOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Subscribes to the runtime's progress events; returns the function that unsubscribes. */
  attach(runtime: Runtime): () => void {
    return runtime.on('task.progress', (event) => this.onProgress(event));
  }

  /** The live lines: the unfinished line of text, then the spinner (while the main agent works). */
  liveLines(): string[] {
    const { colors } = this.options;
    const lines: string[] = [];
    if (this.partial) lines.push(this.styled(this.partial));
    if (!this.options.busy()) return lines;
    const run = this.run;
    const now = this.now();
    const frame = SPINNER[Math.floor(now / 100) % SPINNER.length]!;
    const elapsed = run ? `${((now - run.startedAt) / 1000).toFixed(1)}s` : '0.0s';
    const tokens = run ? run.tokens + Math.round(run.turnChars / 4) : 0;
    lines.push(
      `${colors.magenta(frame)} ${colors.dim(`${this.kind === 'thinking' ? 'Thinking' : 'Working'}… (${elapsed} · ${formatTokens(tokens)} tokens · Ctrl-C to interrupt)`)}`,
    );
    return lines;
  }

  /**
   * Ends the current run's stream (its reply arrived): prints the unfinished line. Returns true
   * when text of the run was printed as it streamed, so the reply's text need not be printed again.
   */
  takeStreamed(): boolean {
    this.flush();
    const streamed = this.streamed;
    this.streamed = false;
    this.kind = 'text';
    this.run = undefined;
    this.options.refresh();
    return streamed;
  }

  private onProgress(event: RuntimeEvents['task.progress']): void {
    if (event.depth !== 0 || event.sessionKey !== this.options.sessionKey) return;
    if (!this.run || this.run.taskId !== event.taskId) {
      this.flush();
      this.run = { taskId: event.taskId, startedAt: this.now() - event.elapsedMs, tokens: 0, turnChars: 0 };
    }
    const run = this.run;
    run.tokens = event.tokens;
    if (event.kind === 'turn') {
      // A turn's text ends with it (interim text before tool calls stays on screen).
      run.turnChars = 0;
      this.flush();
      this.options.refresh();
      return;
    }
    run.turnChars += event.text.length;
    if (event.kind !== this.kind) {
      this.flush();
      this.kind = event.kind;
      if (event.kind === 'thinking') this.options.log(`\n${this.options.colors.magenta('✻ Thinking')}`);
      else if (this.streamed) this.options.log('');
    }
    if (event.kind === 'text' && !this.streamed) {
      this.streamed = true;
      this.options.log('');
    }
    const text = this.partial + event.text;
    const end = text.lastIndexOf('\n');
    if (end >= 0) {
      this.options.log(
        text
          .slice(0, end)
          .split('\n')
          .map((line) => this.styled(line))
          .join('\n'),
      );
      this.partial = text.slice(end + 1);
    } else this.partial = text;
    this.options.refresh();
  }

  /** A line as shown: reasoning dimmed and indented, the answer as it is. */
  private styled(line: string): string {
    return this.kind === 'thinking' ? this.options.colors.dim(`  ${line}`) : line;
  }

  private flush(): void {
    if (this.partial) this.options.log(this.styled(this.partial));
    this.partial = '';
  }
}
