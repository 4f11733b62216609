import type { AgentRegistry, Runtime, Session, SessionMessage } from '@troupe/core';
import { MainStream } from '../render/main-stream.js';
import type { ProgressBoard } from '../render/progress-board.js';
import { replyLines } from '../render/reply.js';
import type { TeamFeed } from '../render/team-feed.js';
import { truncate } from '../render/text.js';
import { createCliRuntime } from '../setup/cli-runtime.js';
import { showMcpWarnings } from '../setup/mcp.js';
import { workspaceFileReader } from '../setup/permissions.js';
import { registerRun } from '../setup/run-registry.js';
import { attachApprovalDesk } from './approval-desk.js';
import { suggestScope } from './approval-scope.js';
import type { SessionAppOptions, SessionHost } from './session-host.js';
import { runSlashCommand } from './slash-commands.js';
import type { Terminal } from './terminal.js';

/**
 * An interactive session with the main agent: lines become messages (queued while it works),
 * `/` lines are commands, progress and approvals are shown as they happen. Ctrl-C interrupts the
 * current turn (and its foreground sub-agents); a second Ctrl-C, `/exit` or end of input exits,
 * cancelling the session's unfinished tasks and saying so.
 */
export class SessionApp implements SessionHost {
  runtime!: Runtime;
  session!: Session;
  registry: AgentRegistry;
  board!: ProgressBoard;
  teams!: TeamFeed;
  private stream!: MainStream;
  readonly terminal: Terminal;
  readonly options: SessionAppOptions;
  private detachDesk: () => void = () => {};
  private offMessage: () => void = () => {};
  private exitArmed = false;
  /** Messages sent and not answered yet, oldest first: the first is being answered, the rest wait. */
  private readonly inbox: string[] = [];
  private closing = false;
  private finish!: (code: number) => void;
  private readonly finished = new Promise<number>((resolve) => {
    this.finish = resolve;
  });

  constructor(options: SessionAppOptions) {
    this.options = options;
    this.terminal = options.terminal;
    this.registry = options.registry;
  }

  /** Starts the session; resolves with the exit code once it ends. */
  run(): Promise<number> {
    this.build();
    // Lets `troupe tasks cancel` / `resume` in another terminal see that this session is alive.
    const unregister = registerRun(this.options.storeDir, this.session.sessionKey);
    void this.finished.then(unregister);
    const { terminal } = this;
    terminal.onLine((line) => this.onLine(line));
    const rl = terminal.rl;
    if (rl && terminal.terminalInput) {
      rl.on('SIGINT', () => this.onInterrupt());
      const onKey = (_text: string, key: { ctrl?: boolean; name?: string } | undefined) => {
        if (key?.ctrl && key.name === 'o') this.toggleExpanded();
      };
      const input = this.options.stdin;
      input.on('keypress', onKey);
      void this.finished.then(() => input.off('keypress', onKey));
    } else {
      const off = this.options.onSignal('SIGINT', () => this.onInterrupt());
      void this.finished.then(off);
    }
    terminal.onEnd(() => void this.exit());
    terminal.showPrompt();
    return this.finished;
  }

  /** Ends the session: interrupts, cancels its unfinished tasks (saying so), shuts the runtime down. */
  async exit(code = 0): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    const { terminal, runtime, session } = this;
    const unsent = this.inbox.slice(session.isBusy ? 1 : 0);
    session.interrupt();
    if (unsent.length > 0) {
      terminal.log(
        terminal.colors.yellow(
          `Not sent (you exited first): ${unsent.map((text) => JSON.stringify(truncate(text, 60))).join(', ')}.`,
        ),
      );
    }
    const active = runtime.list({ sessionKey: session.sessionKey, active: true });
    const cancelled = runtime.cancelSession(session.sessionKey, 'troupe exited.');
    if (cancelled > 0) {
      const names = active.map((info) => `[${info.agent}] ${info.description}`).join(', ');
      terminal.log(
        terminal.colors.yellow(
          `Cancelled ${cancelled} unfinished task${cancelled === 1 ? '' : 's'} of this session on exit${names ? `: ${names}` : ''}.`,
        ),
      );
    }
    session.close();
    this.offMessage();
    this.detachDesk();
    try {
      await runtime.shutdown();
    } finally {
      terminal.close();
      this.finish(code);
    }
  }

  /**
   * Swaps in the agents read again after `/agents create` or `delete`. The runtime looks agents up
   * through a live view of {@link registry}, so it offers the new list from the next model request
   * while its tasks, approvals memory and the conversation stay as they are.
   */
  agentsUpdated(registry: AgentRegistry): void {
    this.registry = registry;
  }

  /** Toggles showing the streamed text under each running task. */
  toggleExpanded(): void {
    this.board.expanded = !this.board.expanded;
    this.terminal.log(
      this.terminal.colors.dim(
        this.board.expanded
          ? 'Showing streamed text (Ctrl-O to hide).'
          : 'Hiding streamed text (Ctrl-O to show).',
      ),
    );
  }

  private build(): void {
    const { options, terminal } = this;
    this.runtime = createCliRuntime(options, {
      agents: { get: (name) => this.registry.get(name), list: () => this.registry.list() },
      ...(options.inspect ? { inspect: options.inspect } : {}),
    });
    options.follow?.(this.runtime);
    this.session = this.runtime.createSession();
    const session = this.session;
    this.board = terminal.track(this.runtime, { sessionKey: session.sessionKey });
    this.teams = terminal.trackTeams(this.runtime, this.board, { sessionKey: session.sessionKey });
    showMcpWarnings(this.runtime, (text) => terminal.log(terminal.colors.yellow(text)));
    this.stream = new MainStream({
      colors: terminal.colors,
      sessionKey: session.sessionKey,
      log: (text) => terminal.log(text),
      refresh: () => terminal.screen.refresh(),
      // While a question waits (an approval), the main agent is not working: it waits for you.
      busy: () => session.isBusy && !terminal.prompter.busy,
    });
    const offStream = this.stream.attach(this.runtime);
    const offLines = terminal.screen.live ? terminal.addLiveLines(() => this.stream.liveLines()) : () => {};
    void this.finished.then(() => {
      offStream();
      offLines();
    });
    this.offMessage = session.on('message', (message) => this.onMessage(message));
    this.detachDesk = attachApprovalDesk({
      runtime: this.runtime,
      prompter: terminal.prompter,
      colors: terminal.colors,
      log: (text) => terminal.log(text),
      mode: 'ask',
      readFile: workspaceFileReader(options.cwd),
      permissions: options.permissions,
      suggestScope: (request) => suggestScope(request, options.cwd),
    });
  }

  private onLine(line: string): Promise<void> | undefined {
    if (this.closing) return;
    const text = line.trim();
    if (!text) {
      this.terminal.showPrompt();
      return;
    }
    this.exitArmed = false;
    return this.handle(text.startsWith('/') ? () => runSlashCommand(this, text) : () => this.send(text));
  }

  /** Runs one input's work and prints its error, if any. */
  private async handle(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.terminal.log(this.terminal.colors.red(`troupe: ${(error as Error).message}`));
    } finally {
      this.terminal.showPrompt();
    }
  }

  private async send(text: string): Promise<void> {
    if (this.session.isBusy)
      this.terminal.log(this.terminal.colors.dim('(Queued: it is sent when the current reply is done.)'));
    this.inbox.push(text);
    try {
      await this.session.send(text);
    } finally {
      this.inbox.splice(this.inbox.indexOf(text), 1);
    }
  }

  private onMessage(message: SessionMessage): void {
    const { terminal } = this;
    if (message.kind === 'announcement') {
      // Exiting: tasks cancelled on the way out report back, but the main agent will not read it.
      if (this.closing) return;
      terminal.log(
        terminal.colors.dim('(A background task reported back; the main agent is reading its result.)'),
      );
      return;
    }
    this.board.mainEnded();
    const streamed = this.stream.takeStreamed();
    terminal.log(replyLines(message, terminal.colors, { textShown: streamed }).join('\n'));
  }

  private onInterrupt(): void {
    const { terminal } = this;
    if (this.closing) return;
    if (this.session.isBusy) {
      this.session.interrupt();
      this.exitArmed = true;
      terminal.log(
        terminal.colors.yellow(
          'Interrupted: the current turn and its foreground sub-agents were cancelled. Press Ctrl-C again to exit.',
        ),
      );
      return;
    }
    if (this.exitArmed) {
      void this.exit(0);
      return;
    }
    this.exitArmed = true;
    terminal.clearInput();
    terminal.log(terminal.colors.dim('Press Ctrl-C again to exit (or type /exit).'));
  }
}
