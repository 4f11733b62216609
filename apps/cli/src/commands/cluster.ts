import { formatDuration, type TaskClient, type TaskInfo } from '@troupe/core';
import { createNodeTools } from '@troupe/node';
import type { ClusterClient } from '@troupe/postgres';
import { UsageError } from '../errors.js';
import { EXIT, exitCodeFor } from '../exit-codes.js';
import type { CliContext } from '../io.js';
import { loadCliSettings } from '../setup/cli-runtime.js';
import { statusOption } from './status-option.js';

/** `troupe run --postgres URL [--agent NAME] PROMPT`: submits one task to the cluster and waits for it. */
export async function clusterRunCommand(context: CliContext): Promise<number> {
  const { options } = context.line;
  const prompt = context.line.args.join(' ').trim();
  if (!prompt) throw new UsageError('troupe run --postgres needs a PROMPT.');
  const client = await connect(context);
  try {
    const agent = options.agent ?? 'general-purpose';
    const handle = client.spawn({ agent, prompt, sessionKey: `run-${Date.now().toString(36)}` });
    context.stderr.write(`Queued task ${handle.id} on the cluster (agent ${agent}).\n`);
    const inspection =
      options.inspect || options.stately
        ? await (await import('../setup/cluster-inspection.js')).inspectClusterTask(
            context,
            options,
            client,
            handle.id,
            context.stderr,
          )
        : undefined;
    client.on('task.started', (event) => {
      if (event.taskId === handle.id) context.stderr.write(`[${event.agent}] started\n`);
    });
    client.on('tool.finished', (event) => {
      if (event.taskId === handle.id)
        context.stderr.write(`[${event.agent}] ${event.tool}${event.isError ? ' (error)' : ''}\n`);
    });
    const result = await handle.result.finally(() => inspection?.close());
    if (options.json) context.stdout.write(`${JSON.stringify(result)}\n`);
    else
      context.stdout.write(
        `${typeof result.output === 'string' ? result.output : JSON.stringify(result.output, null, 2)}\n`,
      );
    return exitCodeFor(result.terminateReason);
  } finally {
    await client.close();
  }
}

/** `troupe tasks list|show ID|cancel ID --postgres URL`: the cluster's tasks. */
export async function clusterTasksCommand(context: CliContext): Promise<number> {
  const client = await connect(context);
  try {
    return await tasksOf(context, client);
  } finally {
    await client.close();
  }
}

/** `tasks list|show ID|cancel ID` over any task client (the cluster's, here). */
async function tasksOf(context: CliContext, client: TaskClient): Promise<number> {
  const [sub = 'list', ...rest] = context.line.args;
  const { options } = context.line;
  if (sub === 'list') {
    const status = statusOption(options.status);
    const { tasks } = await client.history({ ...(status ? { status } : {}), limit: options.limit ?? 20 });
    if (options.json) context.stdout.write(`${JSON.stringify(tasks)}\n`);
    else if (!tasks.length) context.stdout.write('No tasks in the cluster.\n');
    else for (const task of tasks) context.stdout.write(`${row(task)}\n`);
    return EXIT.ok;
  }
  const id = rest[0];
  if (!id || rest.length > 1) throw new UsageError(`Usage: troupe tasks ${sub} ID --postgres URL`);
  if (sub === 'show') {
    const task = await client.find(id);
    if (!task) throw new UsageError(`No task ${id} in the cluster.`);
    context.stdout.write(
      options.json
        ? `${JSON.stringify(task)}\n`
        : `${row(task)}\n${task.result ? `${String(task.result.output)}\n` : ''}`,
    );
    return EXIT.ok;
  }
  if (sub === 'cancel') {
    const cancelled = await client.cancel(id);
    context.stdout.write(cancelled ? `Cancelled ${id}.\n` : `Task ${id} is unknown or already ended.\n`);
    return cancelled ? EXIT.ok : EXIT.error;
  }
  throw new UsageError(`Unknown tasks command "${sub}" with --postgres: use list, show ID or cancel ID.`);
}

function row(task: TaskInfo): string {
  const took = task.result ? `, ${task.toolCalls} tools, ${formatDuration(task.elapsedMs)}` : '';
  return `${task.id}  ${task.status.padEnd(16)} [${task.agent}] ${task.description}${took}`;
}

/** The cluster's connection string: `--postgres`, else `TROUPE_POSTGRES`. */
export function postgresUrl(context: CliContext): string {
  const url = context.line.options.postgres ?? context.env.TROUPE_POSTGRES;
  if (!url)
    throw new UsageError('Pass --postgres URL (or set TROUPE_POSTGRES), e.g. postgres://localhost/troupe.');
  return url;
}

/**
 * A client of the cluster with the agents, tools and limits `troupe worker` has in this folder
 * (the same `loadCliSettings`), so a spawn is checked here as a worker will run it.
 */
async function connect(context: CliContext): Promise<ClusterClient> {
  const url = postgresUrl(context);
  const settings = await loadCliSettings(context, { interactive: false });
  const { connectCluster } = await import('@troupe/postgres');
  return connectCluster({
    postgres: url,
    agents: settings.registry,
    tools: createNodeTools({ root: context.cwd }),
    limits: settings.limits,
  });
}
