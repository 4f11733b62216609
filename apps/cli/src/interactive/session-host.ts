import type { AgentRegistry, PermissionPolicy, Runtime, RuntimeOptions, Session } from '@troupe/core';
import type { InputStream } from '../io.js';
import type { TeamFeed } from '../render/team-feed.js';
import type { CliRuntimeSetup } from '../setup/cli-runtime.js';
import type { Terminal } from './terminal.js';

/** What a session needs: its runtime's setup (model, agents, tools, store, approvals) and the terminal. */
export interface SessionAppOptions extends CliRuntimeSetup {
  terminal: Terminal;
  /** The permission rules (settings files, plus scoped "always allow" answers): the runtime's policy. */
  permissions: PermissionPolicy;
  cwd: string;
  home: string;
  /** Reads the agent folders again (after /agents create or delete). */
  reloadAgents: () => Promise<AgentRegistry>;
  /** The input (for Ctrl-O key presses on a terminal). */
  stdin: InputStream;
  /** Subscribes to SIGINT when input is not a terminal (readline handles Ctrl-C on one). */
  onSignal: (signal: 'SIGINT' | 'SIGTERM', listener: () => void) => () => void;
  /** Lines for `/mcp`: MCP servers (started now if they were not yet), their state and tools. */
  mcpStatus?: () => Promise<string[]>;
  /** An XState inspection observer for every runtime the session builds (`--inspect`, `--stately`). */
  inspect?: RuntimeOptions['inspect'];
  /** Called with every runtime the session builds, after `inspect` (`--inspect` records its teams' events). */
  follow?: (runtime: Runtime) => void;
}

/**
 * What the slash commands and the agent maker use of a running session (the `SessionApp`), so
 * they do not import the app that dispatches to them.
 */
export interface SessionHost {
  readonly runtime: Runtime;
  readonly session: Session;
  readonly registry: AgentRegistry;
  readonly terminal: Terminal;
  readonly options: SessionAppOptions;
  /** The session's agent teams, as they happen. */
  readonly teams: TeamFeed;
  exit(code?: number): Promise<void>;
  agentsUpdated(registry: AgentRegistry): void;
  toggleExpanded(): void;
}
