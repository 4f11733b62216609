import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { formatTokens, type ReplayStep, type TaskStore } from '@troupe/core';
import { formatTimeline, replayTimeline, type Timeline } from '@troupe/inspect';
import { readTimelineFile } from '@troupe/inspect/node';
import { CliError, UsageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { CliContext } from '../io.js';
import { colorsFor } from '../render/colors.js';
import { replayHeader, replayStepLine } from '../render/replay-step.js';
import { openRelay, openStately, relayStore, secretsOf } from '../setup/inspection.js';
import { openStore, storeDir } from '../setup/task-store.js';
import { matchTaskId } from '../task-ids.js';
import { forkStep, forkStored } from './replay-fork.js';
import { replayTeamCommand } from './replay-team.js';
import { isTeam } from './team-show.js';

/**
 * `troupe replay ID`: feeds a stored task's journal back through its machine (no model, no tool,
 * no network), prints each step, and ends with "reproduced exactly" or the first difference.
 * `--inspect` opens the offline inspector on the replay (its page may open the store's other
 * tasks too); `--stately` the hosted Stately inspector; `--save FILE` writes the replay's timeline.
 * `troupe replay FILE --inspect` opens a timeline file; `troupe replay --inspect` the store's tasks.
 * `--fork-at STEP [--agent FILE]` prints the steps up to STEP, then runs a new task from there live
 * (see `replay-fork.ts`).
 */
export async function replayCommand(context: CliContext): Promise<number> {
  const { args, options } = context.line;
  if (args.length === 0 && options.inspect && !options.stately && !options.save) return serveStore(context);
  if (args.length !== 1)
    throw new UsageError(
      "Usage: troupe replay ID [--inspect] [--stately] [--save FILE] [--fork-at STEP [--agent FILE]], or troupe replay --inspect (the store's tasks)",
    );
  const given = args[0]!;
  const forkAt = options.forkAt === undefined ? undefined : forkStep(options.forkAt);
  if (forkAt === undefined && options.agent)
    throw new UsageError('--agent FILE edits the agent of a fork: use it with --fork-at STEP.');
  if (forkAt !== undefined && (options.inspect || options.stately || options.save))
    throw new UsageError('--fork-at runs a new task: it does not take --inspect, --stately or --save.');
  if (/\.jsonl?$/.test(given) || (given.includes('/') && existsSync(resolve(context.cwd, given)))) {
    const timeline = await readTimelineFile(resolve(context.cwd, given));
    context.stdout.write(`Timeline ${given}: ${timeline.records.length} records.\n`);
    if (!options.inspect && !options.stately)
      throw new UsageError('A timeline file is opened with --inspect (the offline inspector) or --stately.');
    return serve(context, timeline);
  }
  const dir = storeDir({ cwd: context.cwd, home: context.home }, options.store);
  const store = openStore(dir);
  try {
    return await replayStored(context, store, dir, given, forkAt);
  } finally {
    await store.close();
  }
}

async function replayStored(
  context: CliContext,
  store: TaskStore,
  dir: string,
  given: string,
  forkAt?: number,
): Promise<number> {
  const { options } = context.line;
  const colors = colorsFor(context.stdout, context.env);
  const { tasks, warnings } = await store.loadTasks();
  for (const warning of warnings) context.stderr.write(`troupe: warning: ${warning.message}\n`);
  if (tasks.length === 0)
    throw new UsageError(`No task with id "${given}": the store ${dir} holds no tasks.`);
  const id = matchTaskId(
    tasks.map((task) => task.spec.taskId),
    given,
  );
  const task = tasks.find((candidate) => candidate.spec.taskId === id)!;
  if (isTeam(task.spec)) return replayTeamCommand(context, store, dir, task);
  const journal = await store.loadJournal(id);
  const newer = journal.warnings.find((warning) => warning.code === 'PERSISTENCE_VERSION');
  if (newer) throw new CliError(`Cannot replay task ${id}: ${newer.message}`);
  for (const warning of journal.warnings)
    context.stderr.write(
      `troupe: warning: the journal is damaged, the replay stops early: ${warning.message}\n`,
    );
  if (journal.entries.length === 0)
    throw new CliError(`Cannot replay task ${id}: its journal in ${dir} is empty.`);

  context.stdout.write(
    `${colors.bold(`Replaying ${id}`)} [${task.spec.agent}] ${task.spec.description}\n${colors.dim(
      `${journal.entries.length} journal entries from ${dir} · no model, no tools`,
    )}\n${replayHeader(colors)}\n`,
  );
  if (forkAt !== undefined) {
    if (forkAt > journal.entries.length)
      throw new UsageError(
        `--fork-at ${forkAt}: task ${id} has steps 1 to ${journal.entries.length} (its journal entries).`,
      );
    // The steps the fork starts from, then the fork itself, live.
    await replayTimeline(store, id, {
      secrets: secretsOf(context.env),
      until: forkAt,
      onStep: (step: ReplayStep) => {
        context.stdout.write(`${replayStepLine(step, colors)}\n`);
      },
    });
    return forkStored(context, store, id, forkAt);
  }
  const { outcome, timeline } = await replayTimeline(store, id, {
    secrets: secretsOf(context.env),
    storeName: dir,
    onStep: (step: ReplayStep) => {
      context.stdout.write(`${replayStepLine(step, colors)}\n`);
    },
  });
  if (outcome.skipped) context.stderr.write(`troupe: warning: ${outcome.skipped}; not compared.\n`);
  const context_ = outcome.snapshot.context;
  const result = outcome.result;
  context.stdout.write(
    `${result ? `Final: ${result.status} (${result.terminateReason})` : `Stopped in ${JSON.stringify(outcome.snapshot.value)}`} · ${plural(context_.turns, 'turn')} · ${plural(context_.toolCalls, 'tool call')} · ${formatTokens(context_.usage.input + context_.usage.output)} tokens\n`,
  );
  if (outcome.matches) {
    context.stdout.write(
      `${colors.green('✓ reproduced exactly')}: the replay equals ${outcome.compared.join(' and ') || 'the journal (nothing else was stored)'}.\n`,
    );
  } else {
    context.stdout.write(`${colors.red('✗ not reproduced')}: first difference ${outcome.differences[0]}\n`);
  }
  if (options.save) {
    const file = resolve(context.cwd, options.save);
    await writeFile(file, formatTimeline(timeline));
    context.stdout.write(`Timeline saved to ${file}\n`);
  }
  if (options.inspect || options.stately) await serve(context, timeline, store, dir);
  return outcome.matches ? EXIT.ok : EXIT.error;
}

/** Serves a timeline to the offline inspector and/or Stately until Ctrl-C; `store` adds its tasks. */
async function serve(
  context: CliContext,
  timeline: Timeline,
  store?: TaskStore,
  dir?: string,
): Promise<number> {
  const { options } = context.line;
  const relay = options.inspect
    ? await openRelay(context, context.stdout, {
        header: timeline.header,
        records: timeline.records,
        ...(store && dir ? { store: { store, name: dir, secrets: secretsOf(context.env) } } : {}),
      })
    : undefined;
  const stately = options.stately ? openStately(context, context.stdout, timeline) : undefined;
  context.stdout.write('Serving the timeline; Ctrl-C to stop.\n');
  await untilInterrupted(context);
  stately?.stop();
  await relay?.close();
  return EXIT.ok;
}

/** `troupe replay --inspect`: the offline inspector on the store's tasks, until Ctrl-C. */
async function serveStore(context: CliContext): Promise<number> {
  const dir = storeDir({ cwd: context.cwd, home: context.home }, context.line.options.store);
  const source = relayStore(context, dir);
  try {
    const relay = await openRelay(context, context.stdout, { store: source });
    context.stdout.write('Pick a task in the page to replay it; Ctrl-C to stop.\n');
    await untilInterrupted(context);
    await relay.close();
    return EXIT.ok;
  } finally {
    await source.store.close?.();
  }
}

function untilInterrupted(context: CliContext): Promise<void> {
  return new Promise<void>((done) => {
    const offs = [context.onSignal('SIGINT', finish), context.onSignal('SIGTERM', finish)];
    function finish() {
      for (const off of offs) off();
      done();
    }
  });
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
