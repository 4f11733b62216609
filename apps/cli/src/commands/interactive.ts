import { join } from 'node:path';
import { createNodeTools } from '@troupe/node';
import { configLimits, loadConfig } from '../config.js';
import { UsageError } from '../errors.js';
import { InputHistory } from '../interactive/input-history.js';
import { SessionApp } from '../interactive/session-app.js';
import { Terminal } from '../interactive/terminal.js';
import { type CliContext, isInteractive } from '../io.js';
import { createClaudeModel, modelChoice } from '../model.js';
import { mcpStatusLines } from '../render/mcp-status.js';
import { agentNotices, agentPlaces, loadAgents } from '../setup/agents.js';
import { chooseApproval } from '../setup/approval-policy.js';
import { openMcp } from '../setup/mcp.js';
import { loadPermissionSettings, permissionPolicyFor } from '../setup/permissions.js';
import { openStore, storeDir } from '../setup/task-store.js';

/** `troupe`: an interactive session with the main agent. */
export async function interactiveCommand(context: CliContext): Promise<number> {
  const { line } = context;
  if (line.args.length > 0) {
    throw new UsageError(
      `Unexpected argument "${line.args[0]}". To run one prompt, use \`troupe run "${line.args.join(' ')}"\`.`,
    );
  }
  const places = { cwd: context.cwd, home: context.home };
  const { config } = await loadConfig(places);
  const agentsAt = agentPlaces(places, context.line.options.agentsDirs, config.agentDirs);
  const registry = await loadAgents(agentsAt);
  const interactive = isInteractive(context);
  const approval = chooseApproval(line.options, config, interactive);
  const permissions = permissionPolicyFor(await loadPermissionSettings(places), approval.mode, context.cwd);
  let notify: (notice: string) => void = () => {};
  const { model, models } = await createClaudeModel(context.env, modelChoice(line.options, config), {
    onRetry: (notice) => notify(notice),
  });
  const mcp = await openMcp({ ...places, env: context.env }, registry.list());
  const tools = createNodeTools({ root: context.cwd });
  const dir = storeDir(places, line.options.store);
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
    terminal,
    model,
    models,
    registry,
    tools,
    toolSources: mcp.toolSources,
    openStore: () => openStore(dir),
    storeDir: dir,
    approval: approval.mode,
    permissions,
    limits: configLimits(config),
    cwd: context.cwd,
    home: context.home,
    reloadAgents: () => loadAgents(agentsAt),
    stdin: context.stdin,
    onSignal: context.onSignal,
    // `/mcp` lists tools, so it starts the servers no task has started yet.
    mcpStatus: async () => {
      await mcp.hub?.tools();
      return mcpStatusLines(mcp.hub?.status() ?? [], colors);
    },
    ...(inspection ? { inspect: inspection.inspect } : {}),
  });
  try {
    return await app.run();
  } finally {
    await mcp.close();
    await inspection?.close();
  }
}
