import { afterEach } from 'vitest';
import type { FakeAnthropicServer, FakeHandler } from '../../../../test/fake-anthropic/index.js';
import { cliCommandLine, fixtureProject, tempDir } from './cli.js';
import { fakeEnv, startFakeClaude } from './fake-claude.js';
import { TmuxTerminal } from './tmux.js';

/** Options of {@link TmuxSessions.open}. */
export interface OpenTroupeOptions {
  /** The fake Claude the CLI talks to; without one the CLI gets no API settings (the demo needs none). */
  server?: FakeAnthropicServer;
  /** Arguments of `troupe` (default none: the interactive session). */
  args?: string[];
  /** The working directory (default a fresh copy of the fixture project). */
  project?: string;
  /** `HOME` of the CLI (default a fresh temporary directory). */
  home?: string;
  /** More environment variables of the CLI (such as `TMPDIR`). */
  env?: Record<string, string>;
  /** What the screen shows once the CLI is ready (default its prompt `> ` on a line of its own). */
  ready?: RegExp;
  /** How long to wait for `ready`, in milliseconds (default the terminal's own 15 s). */
  timeoutMs?: number;
}

/** The tmux terminals and fake Claude servers of one test file, see {@link useTmuxSessions}. */
export interface TmuxSessions {
  /** Starts a fake Claude answering with `handler`, closed after the test. */
  serve(handler: FakeHandler): Promise<FakeAnthropicServer>;
  /** Starts `troupe` in a new terminal (killed after the test) and waits until it is `ready`. */
  open(options?: OpenTroupeOptions): Promise<TmuxTerminal>;
}

/**
 * Terminals and servers for tests that drive `troupe` in tmux. Call it at the top of a test file:
 * it registers an `afterEach` that kills every terminal opened and closes every server served or
 * passed to `open` during the test, whether the test passed or not.
 */
export function useTmuxSessions(): TmuxSessions {
  const terminals: TmuxTerminal[] = [];
  const servers = new Set<FakeAnthropicServer>();
  afterEach(async () => {
    for (const terminal of terminals.splice(0)) terminal.kill();
    const closing = [...servers].map((server) => server.close());
    servers.clear();
    await Promise.all(closing);
  });
  return {
    async serve(handler) {
      const server = await startFakeClaude(handler);
      servers.add(server);
      return server;
    },
    async open(options = {}) {
      if (options.server) servers.add(options.server);
      const terminal = TmuxTerminal.start(cliCommandLine(options.args ?? []), {
        cwd: options.project ?? fixtureProject(),
        env: {
          HOME: options.home ?? tempDir('home'),
          ...(options.server ? fakeEnv(options.server) : {}),
          ...options.env,
          TERM: 'xterm-256color',
        },
      });
      terminals.push(terminal);
      await terminal.waitFor(options.ready ?? /^> $/m, options.timeoutMs);
      return terminal;
    },
  };
}
