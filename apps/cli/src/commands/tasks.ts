import {
  DEFAULT_PRICES,
  FINAL_TASK_EVENTS,
  formatDuration,
  formatTokens,
  type ResultCost,
  resultCost,
  type StoredTask,
  type TaskResult,
  type TaskStore,
} from '@troupe/core';
import { cancelStoredTask, isFinalStatus, transcriptOf } from '@troupe/core/store';
import type { FileStore } from '@troupe/node';
import { configPrices, loadConfig } from '../config.js';
import { CliError, UsageError } from '../errors.js';
import { EXIT, exitCodeFor } from '../exit-codes.js';
import type { CliContext } from '../io.js';
import { colorsFor } from '../render/colors.js';
import { transcriptLines } from '../render/transcript.js';
import { formatDollars } from '../render/usage-ledger.js';
import { workspaceLines } from '../render/workspace-lines.js';
import { runnerOf } from '../setup/run-registry.js';
import { openStore, storeDir } from '../setup/task-store.js';
import { statusOption } from './status-option.js';
import { openStoreSession } from './store-session.js';
import { findStoredTask, unfinishedTasks } from './task-lookup.js';
import { followUpTask } from './tasks-follow-up.js';
import { listStoredTasks } from './tasks-list.js';
import { isTeam, showTeam } from './team-show.js';

/** `troupe tasks list|show ID|cancel ID|resume [ID]|follow-up ID MESSAGE` over the persisted store. */
export async function tasksCommand(context: CliContext): Promise<number> {
  const [sub = 'list', ...rest] = context.line.args;
  const places = { cwd: context.cwd, home: context.home };
  const dir = storeDir(places, context.line.options.store);
  const store = openStore(dir);
  try {
    switch (sub) {
      case 'list':
        if (rest.length)
          throw new UsageError('troupe tasks list takes no arguments (filter with --status, --limit).');
        return await list(context, store);
      case 'show':
        return await show(context, store, one(rest, 'show'));
      case 'cancel':
        return await cancel(context, store, one(rest, 'cancel'));
      case 'resume':
        if (rest.length > 1) throw new UsageError('Usage: troupe tasks resume [ID]');
        return await resume(context, store, rest[0]);
      case 'follow-up':
        return await followUpTask(context, store, rest);
      default:
        throw new UsageError(
          `Unknown tasks command "${sub}": use list, show ID, cancel ID, resume [ID] or follow-up ID MESSAGE.`,
        );
    }
  } finally {
    await store.close();
  }
}

function one(args: string[], sub: string): string {
  if (args.length !== 1) throw new UsageError(`Usage: troupe tasks ${sub} ID`);
  return args[0]!;
}

async function list(context: CliContext, store: FileStore): Promise<number> {
  const { limit, json } = context.line.options;
  const status = statusOption(context.line.options.status);
  return listStoredTasks(context, store, store.dir, { limit, status, json });
}

async function show(context: CliContext, store: TaskStore, given: string): Promise<number> {
  const task = await findStoredTask(store, given);
  if (isTeam(task.spec)) return showTeam(context, store, task);
  const id = task.spec.taskId;
  const snapshot = await store.loadSnapshot(id).catch((error: Error) => {
    context.stderr.write(`troupe: warning: ${error.message}\n`);
    return undefined;
  });
  const journal = await store.loadJournal(id);
  const messages = transcriptOf(task.spec, snapshot, journal.entries);
  // The prices of the config files (`prices`), over the list prices; they only change estimates.
  const { config } = await loadConfig({ cwd: context.cwd, home: context.home });
  const prices = configPrices(config);
  const cost = task.result ? resultCost(task.result, prices) : undefined;
  const estimatedCost = cost && cost.unpriced.length === 0 ? cost.cost : undefined;
  if (context.line.options.json) {
    context.stdout.write(`${JSON.stringify({ ...task, estimatedCost, messages }, null, 2)}\n`);
    return EXIT.ok;
  }
  const colors = colorsFor(context.stdout, context.env);
  const { spec, result } = task;
  const lines = [
    `${colors.bold(`[${spec.agent}] ${spec.description}`)}  ${id}`,
    `status:   ${task.status}${result ? ` (${result.terminateReason})` : ''}`,
    `created:  ${new Date(spec.createdAt).toISOString()} · session ${spec.sessionKey}${spec.background ? ' · background' : ''}`,
    `model:    ${result?.model ?? spec.model}`,
  ];
  if (spec.forkedFrom)
    lines.push(
      `forked:   from task ${spec.forkedFrom.taskId} at step ${spec.forkedFrom.step} (troupe replay ${spec.forkedFrom.taskId})`,
    );
  if (spec.followUpOf)
    lines.push(`follows:  task ${spec.followUpOf} (a follow-up: it continues that conversation)`);
  if (result) {
    lines.push(
      `usage:    ${result.turns} turns · ${result.toolCalls} tool calls · ${formatDuration(result.durationMs)} · ${formatTokens(result.usage.total)} tokens`,
      `tokens:   input ${formatTokens(result.usage.input)} (cache read ${formatTokens(result.usage.cacheRead ?? 0)}, cache write ${formatTokens(result.usage.cacheWrite ?? 0)}) · output ${formatTokens(result.usage.output)}`,
      ...modelLines(result),
      `cost:     ${costText(cost!, prices === DEFAULT_PRICES)}`,
    );
  }
  if (result?.workspace) lines.push(...workspaceLines(result.workspace, colors));
  lines.push('', colors.bold('Transcript'), ...transcriptLines(messages, colors));
  if (result?.error) lines.push('', colors.red(`error: ${result.error.message}`));
  if (result && typeof result.output !== 'string') {
    lines.push('', colors.bold('Output'), JSON.stringify(result.output, null, 2));
  }
  context.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}

/** A task that more than one model answered: each model's tokens (its cost is priced part by part). */
function modelLines(result: TaskResult): string[] {
  return Object.entries(result.usageByModel ?? {}).map(
    ([model, usage]) =>
      `  ${model}: input ${formatTokens(usage.input)} (cache read ${formatTokens(usage.cacheRead ?? 0)}, cache write ${formatTokens(usage.cacheWrite ?? 0)}) · output ${formatTokens(usage.output)}`,
  );
}

function costText(cost: ResultCost, listPrices: boolean): string {
  const at = listPrices ? 'list prices' : 'the prices of your settings';
  if (cost.unpriced.length === 0) return `≈ ${formatDollars(cost.cost)} (estimate at ${at})`;
  const missing = `no price known for ${cost.unpriced.join(', ')}`;
  return cost.cost > 0 ? `≈ ${formatDollars(cost.cost)} and more (${missing}; estimate at ${at})` : missing;
}

async function cancel(context: CliContext, store: FileStore, given: string): Promise<number> {
  const task = await findStoredTask(store, given);
  const id = task.spec.taskId;
  if (isFinalStatus(task.status)) throw new CliError(`Task ${id} already ended (${task.status}).`);
  const runner = runnerOf(store.dir, id);
  if (runner !== undefined) {
    process.kill(runner, 'SIGTERM');
    context.stdout.write(`Asked the process running task ${id} (pid ${runner}) to cancel it.\n`);
    return EXIT.ok;
  }
  const session = runnerOf(store.dir, task.spec.sessionKey);
  if (session !== undefined) {
    throw new CliError(
      `Task ${id} belongs to a troupe process that is still running (pid ${session}); cancel it there (/tasks cancel ${id} in a session, Ctrl-C for troupe run).`,
    );
  }
  cancelStoredTask(store, task.spec, 'Cancelled with `troupe tasks cancel`.', Date.now());
  await store.flush();
  context.stdout.write(`Cancelled task ${id} (no process was running it; it will not be resumed).\n`);
  return EXIT.ok;
}

async function resume(context: CliContext, store: FileStore, given: string | undefined): Promise<number> {
  let chosen: StoredTask[];
  if (given) {
    const task = await findStoredTask(store, given);
    if (isFinalStatus(task.status))
      throw new CliError(`Task ${task.spec.taskId} already ended (${task.status}).`);
    chosen = [task];
  } else chosen = await unfinishedTasks(store);
  const busy = chosen.filter(
    (task) => runnerOf(store.dir, task.spec.taskId) ?? runnerOf(store.dir, task.spec.sessionKey),
  );
  if (given && busy.length)
    throw new CliError(`Task ${chosen[0]!.spec.taskId} is still running in another troupe process.`);
  chosen = chosen.filter((task) => !busy.includes(task));
  if (chosen.length === 0) {
    context.stdout.write(`No unfinished tasks to resume in ${store.dir}.\n`);
    return EXIT.ok;
  }
  const ids = new Set(chosen.map((task) => task.spec.taskId));
  const { runtime, terminal, close } = await openStoreSession(context, store);
  const results = new Map<string, TaskResult>();
  let done!: () => void;
  const allDone = new Promise<void>((resolve) => {
    done = resolve;
  });
  for (const name of FINAL_TASK_EVENTS) {
    runtime.on(name, (event) => {
      if (!ids.has(event.taskId)) return;
      results.set(event.taskId, event.result);
      if (results.size === ids.size) done();
    });
  }
  const offs = [
    context.onSignal('SIGINT', () => {
      for (const id of ids) runtime.cancel(id, 'Interrupted by the user.');
    }),
  ];
  terminal.rl?.on('SIGINT', () => {
    for (const id of ids) runtime.cancel(id, 'Interrupted by the user.');
  });
  try {
    terminal.log(`Resuming ${ids.size} task${ids.size === 1 ? '' : 's'} from ${store.dir}.`);
    const { restored, warnings } = await runtime.restore({ taskIds: [...ids] });
    for (const warning of warnings) terminal.log(terminal.colors.yellow(`warning: ${warning.message}`));
    for (const id of ids) if (!restored.includes(id)) ids.delete(id);
    if (ids.size > results.size) await allDone;
    const outcomes = [...results.values()];
    for (const result of outcomes) {
      const output =
        typeof result.output === 'string' ? result.output : JSON.stringify(result.output, null, 2);
      if (output)
        context.stdout.write(`${outcomes.length > 1 ? `--- ${result.taskId}\n` : ''}${output.trimEnd()}\n`);
    }
    const failed = outcomes.find((result) => result.terminateReason !== 'GOAL');
    return failed ? exitCodeFor(failed.terminateReason) : EXIT.ok;
  } finally {
    for (const off of offs) off();
    await close();
  }
}
