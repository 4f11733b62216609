// `troupe tasks follow-up ID MESSAGE`: continues a finished task's conversation as a new task of
// the same agent (`runtime.followUp`, linked by `followUpOf`), run here as `troupe tasks resume`
// runs a task: progress lines, the approval desk, Ctrl-C cancels; its output on stdout.
import { type TaskHandle, TroupeError } from '@troupe/core';
import { isFinalStatus } from '@troupe/core/store';
import type { FileStore } from '@troupe/node';
import { CliError, UsageError } from '../errors.js';
import { exitCodeFor } from '../exit-codes.js';
import type { CliContext } from '../io.js';
import { registerRun } from '../setup/run-registry.js';
import { openStoreSession } from './store-session.js';
import { findStoredTask } from './task-lookup.js';

/** The errors of `runtime.followUp` the CLI reports as one line naming the task. */
const FOLLOW_UP_ERRORS = new Set(['TASK_NOT_FOUND', 'TASK_AMBIGUOUS', 'TASK_RUNNING']);

/**
 * Runs a follow-up of the stored task `given` (its id or a prefix of it) with `args` as the
 * message, and returns the exit code of the follow-up's result.
 */
export async function followUpTask(context: CliContext, store: FileStore, args: string[]): Promise<number> {
  const [given, ...words] = args;
  const message = words.join(' ').trim();
  if (!given || !message) throw new UsageError('Usage: troupe tasks follow-up ID MESSAGE');
  const target = await findStoredTask(store, given);
  const id = target.spec.taskId;
  if (!isFinalStatus(target.status))
    throw new CliError(
      `Task ${id} has not finished (${target.status}): a follow-up continues a finished task (troupe tasks resume ${id} carries it on).`,
    );
  const { runtime, terminal, close } = await openStoreSession(context, store);
  let handle: TaskHandle | undefined;
  const cancel = () => {
    if (handle) runtime.cancel(handle.id, 'Interrupted by the user.');
  };
  const offs = [context.onSignal('SIGINT', cancel), context.onSignal('SIGTERM', cancel)];
  terminal.rl?.on('SIGINT', cancel);
  let unregister = () => {};
  try {
    try {
      handle = await runtime.followUp(id, message);
    } catch (error) {
      if (TroupeError.isInstance(error) && FOLLOW_UP_ERRORS.has(error.code))
        throw new CliError(`Cannot follow up task ${id}: ${error.message}`, undefined, { cause: error });
      throw error;
    }
    unregister = registerRun(store.dir, handle.id);
    terminal.log(`Following up task ${id} (${target.spec.agent}) as task ${handle.id}.`);
    const result = await handle.result;
    const output = typeof result.output === 'string' ? result.output : JSON.stringify(result.output, null, 2);
    if (output) context.stdout.write(`${output.trimEnd()}\n`);
    if (result.status !== 'completed')
      context.stderr.write(
        `troupe: task ${handle.id} ${result.status === 'cancelled' ? 'was cancelled' : 'failed'} (${result.terminateReason})${result.error ? `: ${result.error.message}` : ''}\n`,
      );
    return exitCodeFor(result.terminateReason);
  } finally {
    for (const off of offs) off();
    unregister();
    await close();
  }
}
