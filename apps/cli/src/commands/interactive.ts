import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { InputHistory } from '../interactive/input-history.js';
import { SessionApp } from '../interactive/session-app.js';
import { Terminal } from '../interactive/terminal.js';
import { type CliContext, isInteractive } from '../io.js';
import { mcpStatusLines } from '../render/mcp-status.js';
import { agentNotices, loadAgents } from '../setup/agents.js';
import { loadCliSettings, loadCliSetup } from '../setup/cli-runtime.js';

/** `troupe`: an interactive session with the main agent. */
export async function interactiveCommand(context: CliContext): Promise<number> {
  const { line } = context;
  if (line.args.length > 0) {
    throw new UsageError(
      `Unexpected argument "${line.args[0]}". To run one prompt, use \`troupe run "${line.args.join(' ')}"\`.`,
    );
  }
  const settings = await loadCliSettings(context, {
    interactive: isInteractive(context),
    askTrust: isInteractive(context),
  });
  const approval = settings.approvalChoice;
  let notify: (notice: string) => void = () => {};
  const setup = await loadCliSetup(context, settings, { onRetry: (notice) => notify(notice) });
  const { mcp, models, registry, tools, storeDir: dir } = setup;
  const history = new InputHistory(join(context.home, '.troupe', 'history'));
  const terminal = new Terminal({ io: context, out: context.stdout, input: true, prompt: '> ', history });
  const { colors } = terminal;
  notify = (notice) => terminal.log(colors.yellow(notice));
  terminal.log(
    `${colors.bold('troupe')} ${colors.dim(`· ${models.default} · ${context.cwd}`)}\n${colors.dim(
      'Type a request; /help for commands; Ctrl-C interrupts, twice exits.',
    )}`,
  );
  for (const notice of await agentNotices(registry, tools)) terminal.log(colors.yellow(notice));
  if (approval.notice) terminal.log(colors.yellow(approval.notice));
  for (const notice of mcp.notices) terminal.log(colors.yellow(notice));
  if (history.warning) terminal.log(colors.yellow(history.warning));
  const inspection =
    line.options.inspect || line.options.stately
      ? await (await import('../setup/inspection.js')).startLiveInspection(
          context,
          line.options,
          {
            write: (text) => {
              terminal.log(text.trimEnd());
              return true;
            },
          },
          dir,
        )
      : undefined;
  const app = new SessionApp({
    ...setup,
    terminal,
    cwd: context.cwd,
    home: context.home,
    reloadAgents: () => loadAgents(setup.agentsAt),
    stdin: context.stdin,
    onSignal: context.onSignal,
    // `/mcp` lists tools, so it starts the servers no task has started yet.
    mcpStatus: async () => {
      await mcp.hub?.tools();
      return mcpStatusLines(mcp.hub?.status() ?? [], colors);
    },
    ...(inspection ? { inspect: inspection.inspect, follow: inspection.follow } : {}),
  });
  try {
    return await app.run();
  } finally {
    await mcp.close();
    await inspection?.close();
  }
}
