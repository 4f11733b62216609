import {
  FINAL_TASK_EVENTS,
  formatDuration,
  type PriceTable,
  resultCost,
  type TaskResult,
} from '@troupe/core';
import { EXIT } from '../exit-codes.js';
import type { CliContext } from '../io.js';
import { formatDollars } from '../render/usage-ledger.js';
import { agentNotices } from '../setup/agents.js';
import { loadCliSettings, loadCliSetup, sharedRuntimeOptions } from '../setup/cli-runtime.js';
import { showMcpWarnings } from '../setup/mcp.js';
import { describeSetup } from '../setup/setup-summary.js';
import { postgresUrl } from './cluster.js';

/** What each approval mode means on a worker, where nobody is at the terminal. */
const WORKER_APPROVAL = {
  ask: 'left to cluster clients',
  auto: 'write and execute tools run unless a deny rule covers them',
  deny: 'write and execute tools are refused unless an allow rule covers them',
} as const;

/**
 * `troupe worker --postgres URL`: runs a worker of the cluster until SIGINT/SIGTERM. Its runtime is
 * built as `troupe run`'s is (`loadCliSettings`, `loadCliSetup`, `sharedRuntimeOptions`): the same
 * config, agents, Node tools, permission rules, MCP servers and project trust; it says at start
 * which it uses. `--dead-after 10s` sets how long another worker may stay silent before this one
 * takes it for dead and hands its tasks back to the queue (`deadAfterMs`). Approvals:
 * `--approval auto|deny` (or the config's `approval`) decides here; `ask` leaves them to cluster
 * clients (default deny: nobody is at this terminal).
 */
export async function workerCommand(context: CliContext): Promise<number> {
  const { options } = context.line;
  const url = postgresUrl(context);
  const settings = await loadCliSettings(context, { interactive: false });
  const setup = await loadCliSetup(context, settings, {
    onRetry: (notice) => context.stderr.write(`troupe: ${notice}\n`),
  });
  try {
    for (const notice of await agentNotices(setup.registry, setup.tools))
      context.stderr.write(`troupe: ${notice}\n`);
    for (const notice of setup.mcp.notices) context.stderr.write(`troupe: ${notice}\n`);
    const { startWorker } = await import('@troupe/postgres');
    const worker = await startWorker({
      postgres: url,
      ...sharedRuntimeOptions(setup),
      ...(options.deadAfterMs === undefined ? {} : { deadAfterMs: options.deadAfterMs }),
    });
    context.stderr.write(
      `troupe worker ${worker.id}: running tasks of the cluster (Ctrl-C stops it; its tasks go to the other workers; it takes a worker silent for ${formatDuration(worker.deadAfterMs)} for dead).\n${describeSetup(setup, WORKER_APPROVAL).join('\n')}\n`,
    );
    showMcpWarnings(worker.runtime, (text) => context.stderr.write(`troupe: ${text}\n`));
    worker.runtime.on('task.started', (event) =>
      context.stderr.write(`[${event.agent}] ${event.description} started\n`),
    );
    for (const name of FINAL_TASK_EVENTS)
      worker.runtime.on(name, (event) =>
        context.stderr.write(
          `[${event.agent}] ${event.description} ${event.result.status} (${event.result.toolCalls} tools, ${formatDuration(event.result.durationMs)}${costNote(event.result, setup.prices)})\n`,
        ),
      );
    await new Promise<void>((resolve) => {
      context.onSignal('SIGINT', () => resolve());
      context.onSignal('SIGTERM', () => resolve());
    });
    await worker.stop();
    return EXIT.ok;
  } finally {
    await setup.mcp.close();
  }
}

/** `, ≈ $0.0123` for a task's estimated cost at the configured prices ('' when a model has no price). */
function costNote(result: TaskResult, prices: PriceTable): string {
  const cost = resultCost(result, prices);
  return cost.unpriced.length ? '' : `, ≈ ${formatDollars(cost.cost)}`;
}
