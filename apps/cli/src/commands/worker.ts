import { FINAL_TASK_EVENTS, formatDuration } from '@troupe/core';
import { createNodeTools } from '@troupe/node';
import { configLimits, loadConfig } from '../config.js';
import { EXIT } from '../exit-codes.js';
import type { CliContext } from '../io.js';
import { createClaudeModel, modelChoice } from '../model.js';
import { agentNotices, agentPlaces, loadAgents } from '../setup/agents.js';
import { projectTrust } from '../setup/project-trust.js';
import { ignoredNotice } from '../setup/trust-report.js';
import { postgresUrl } from './cluster.js';

/**
 * `troupe worker --postgres URL`: runs a worker of the cluster until SIGINT/SIGTERM.
 * `--dead-after 10s` sets how long another worker may stay silent before this one takes it for
 * dead and hands its tasks back to the queue (`deadAfterMs`). Approvals:
 * `--approval auto|deny` decides here; `ask` leaves them to cluster clients (default deny:
 * nobody is at this terminal).
 */
export async function workerCommand(context: CliContext): Promise<number> {
  const { options } = context.line;
  const url = postgresUrl(context);
  const places = { cwd: context.cwd, home: context.home };
  const trust = projectTrust({ ...places, env: context.env, flag: options.trustProject === true });
  const { config, ignored } = await loadConfig({ ...places, trustProject: trust.trusted });
  if (ignored.length)
    context.stderr.write(`${ignoredNotice({ mcp: [], allow: [], settings: ignored }, trust.folder)}\n`);
  const registry = await loadAgents(agentPlaces(places, context.line.options.agentsDirs, config.agentDirs));
  const { model, models } = await createClaudeModel(context.env, modelChoice(options, config));
  const tools = createNodeTools({ root: context.cwd });
  for (const notice of await agentNotices(registry, tools)) context.stderr.write(`troupe: ${notice}\n`);
  const { startWorker } = await import('@troupe/postgres');
  const worker = await startWorker({
    postgres: url,
    model,
    models,
    agents: registry,
    tools,
    limits: configLimits(config),
    approval: options.approval ?? 'deny',
    ...(options.deadAfterMs === undefined ? {} : { deadAfterMs: options.deadAfterMs }),
  });
  context.stderr.write(
    `troupe worker ${worker.id}: running tasks of the cluster (Ctrl-C stops it; its tasks go to the other workers; it takes a worker silent for ${formatDuration(worker.deadAfterMs)} for dead).\n`,
  );
  worker.runtime.on('task.started', (event) =>
    context.stderr.write(`[${event.agent}] ${event.description} started\n`),
  );
  for (const name of FINAL_TASK_EVENTS)
    worker.runtime.on(name, (event) =>
      context.stderr.write(
        `[${event.agent}] ${event.description} ${event.result.status} (${event.result.toolCalls} tools, ${formatDuration(event.result.durationMs)})\n`,
      ),
    );
  await new Promise<void>((resolve) => {
    context.onSignal('SIGINT', () => resolve());
    context.onSignal('SIGTERM', () => resolve());
  });
  await worker.stop();
  return EXIT.ok;
}
