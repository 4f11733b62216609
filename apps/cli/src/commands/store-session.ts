// The CLI runtime over a task store for the commands that run stored tasks (`tasks resume`,
// `tasks follow-up`): the user's settings and setup, a terminal that shows the runtime's progress
// and warnings, and the approval desk when approvals are asked.
import type { Runtime } from '@troupe/core';
import type { FileStore } from '@troupe/node';
import { attachDeskIfAsking } from '../interactive/approval-desk.js';
import { Terminal } from '../interactive/terminal.js';
import { type CliContext, isInteractive } from '../io.js';
import { createCliRuntime, loadCliSettings, loadCliSetup } from '../setup/cli-runtime.js';
import { showMcpWarnings } from '../setup/mcp.js';

/** A runtime over a store, with what shows its work; `close()` lets all of it go. */
export interface StoreSession {
  readonly runtime: Runtime;
  readonly terminal: Terminal;
  /** Detaches the desk, closes the terminal, shuts the runtime down and closes MCP servers. */
  close(): Promise<void>;
}

/** Opens the CLI runtime over `store`: settings, setup, terminal, progress, MCP warnings, approvals. */
export async function openStoreSession(context: CliContext, store: FileStore): Promise<StoreSession> {
  const settings = await loadCliSettings(context, { interactive: isInteractive(context) });
  const approval = settings.approvalChoice;
  const setup = await loadCliSetup(context, settings);
  const terminal = new Terminal({ io: context, out: context.stderr, input: approval.mode === 'ask' });
  if (approval.notice) terminal.log(terminal.colors.yellow(approval.notice));
  for (const notice of setup.mcp.notices) terminal.log(terminal.colors.yellow(notice));
  const runtime = createCliRuntime(setup, { store });
  terminal.track(runtime);
  showMcpWarnings(runtime, (text) => terminal.log(terminal.colors.yellow(text)));
  const detachDesk = attachDeskIfAsking(runtime, terminal, approval.mode);
  return {
    runtime,
    terminal,
    async close() {
      detachDesk();
      terminal.close();
      await runtime.shutdown();
      await setup.mcp.close();
    },
  };
}
