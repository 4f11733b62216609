import { execFileSync } from 'node:child_process';

const TMUX = '/usr/bin/tmux';

/** Options of {@link TmuxTerminal.start}. */
export interface TmuxOptions {
  cwd: string;
  env: Record<string, string>;
  width?: number;
  height?: number;
}

/**
 * A real terminal for end-to-end tests: a tmux session on its own server socket, running one
 * command. Screen content is read with capture-pane and waited on by polling with a deadline.
 */
export class TmuxTerminal {
  private constructor(
    private readonly socket: string,
    private readonly session: string,
  ) {}

  /** Starts `command` (a shell command line) in a new detached session. */
  static start(command: string, options: TmuxOptions): TmuxTerminal {
    const socket = `troupe-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const terminal = new TmuxTerminal(socket, 'main');
    const env = Object.entries(options.env).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
    // The shell stays after the command so its last screen (and exit code) can be read.
    const wrapped = `${command}; echo "[exit $?]"; sleep 600`;
    terminal.tmux([
      'new-session',
      '-d',
      '-s',
      'main',
      '-x',
      String(options.width ?? 120),
      '-y',
      String(options.height ?? 40),
      '-c',
      options.cwd,
      ...env,
      wrapped,
    ]);
    return terminal;
  }

  private tmux(args: string[]): string {
    return execFileSync(TMUX, ['-L', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  }

  /** The screen and its scrollback, as plain text (no escape codes). */
  capture(): string {
    return this.tmux(['capture-pane', '-p', '-J', '-t', this.session, '-S', '-2000']);
  }

  /** The screen with escape codes (to check colours). */
  captureWithStyles(): string {
    return this.tmux(['capture-pane', '-p', '-e', '-J', '-t', this.session, '-S', '-2000']);
  }

  /** Types text (literally) without pressing Enter. */
  type(text: string): void {
    this.tmux(['send-keys', '-t', this.session, '-l', text]);
  }

  /** Presses keys by tmux name (`Enter`, `C-c`, `C-o`). */
  press(...keys: string[]): void {
    this.tmux(['send-keys', '-t', this.session, ...keys]);
  }

  /** Types a line and presses Enter. */
  line(text: string): void {
    this.type(text);
    this.press('Enter');
  }

  /**
   * Polls the screen until `test` matches (a regular expression or a predicate), or fails after
   * `timeoutMs` with the screen in the message.
   */
  async waitFor(test: RegExp | ((screen: string) => boolean), timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    const ok = typeof test === 'function' ? test : (screen: string) => test.test(screen);
    for (;;) {
      const screen = this.capture();
      if (ok(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${String(test)}. Screen:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Kills the tmux server of this terminal (and the command). */
  kill(): void {
    try {
      this.tmux(['kill-server']);
    } catch {
      // Already gone.
    }
  }
}
