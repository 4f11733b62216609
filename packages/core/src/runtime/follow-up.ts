import { TroupeError, ValidationError } from '../errors.js';
import type { Message } from '../model/types.js';
import { FINAL_STATUSES, isFinalStatus } from '../persistence/statuses.js';
import { transcriptOf } from '../persistence/transcript.js';
import type { StoredTask, TaskStore } from '../persistence/types.js';
import type { AgentCatalog } from './agent-catalog.js';
import type { SpawnOptions } from './spawn-options.js';
import type { TaskHandle } from './task-handle.js';

/** Options of `runtime.followUp`. */
export interface FollowUpOptions {
  /**
   * Only a task of this session is found (the main agent's tools pass theirs). Without it, a task id
   * is found in any session, and a name only among tasks of the `default` session.
   */
  sessionKey?: string;
  /** Run the follow-up in the background (its result still resolves `handle.result`). */
  background?: boolean;
  /** Announce its result back into the session (what a background `task` call does). */
  announce?: boolean;
  /** @internal The task that sends the follow-up (nesting: limits capped by it). */
  parentTaskId?: string;
  /** @internal Why the sender may not start this agent (its `Agent(...)` tools), if it may not. */
  refuse?: (agent: string) => string | undefined;
}

/** What a follow-up needs from the runtime. */
export interface FollowUpRuntime {
  readonly store: TaskStore;
  readonly agents: AgentCatalog;
  spawnInternal(options: SpawnOptions & { history?: Message[]; followUpOf?: string }): TaskHandle;
  /** The spec and status of a task this runtime runs, when it runs it. */
  liveStatus(taskId: string): string | undefined;
}

const NAME_CANDIDATES = 50;

/**
 * Continues a finished sub-agent's conversation with `message`, as a new task of the same agent
 * and session that starts from the stored conversation and names the task it continues
 * (`spec.followUpOf`). `target` is a task id, or an agent name when exactly one finished task of
 * that agent (not already followed up) is in the session. Works after a restart and on every
 * store: the conversation is read from the stored snapshot and journal. Throws `TASK_NOT_FOUND`,
 * `TASK_AMBIGUOUS` (naming the candidates), `TASK_RUNNING` (steer it instead) or what `spawn`
 * throws.
 */
export async function followUp(
  runtime: FollowUpRuntime,
  target: string,
  message: string,
  options: FollowUpOptions = {},
): Promise<TaskHandle> {
  if (typeof target !== 'string' || target.trim() === '')
    throw new ValidationError('followUp: name the task to continue (its id, or its agent name).', ['target']);
  if (typeof message !== 'string' || message.trim() === '')
    throw new ValidationError('followUp: the message must be a non-empty string.', ['message']);
  await runtime.store.flush();
  const task = await findTarget(runtime, target.trim(), options.sessionKey);
  if (runtime.liveStatus(task.spec.taskId) !== undefined || !isFinalStatus(task.status))
    throw new TroupeError(
      'TASK_RUNNING',
      `Task ${task.spec.taskId} (${task.spec.agent}) has not finished (${task.status}); send it a message with steer / message_task instead of a follow-up.`,
    );
  const [snapshot, journal] = await Promise.all([
    runtime.store.loadSnapshot(task.spec.taskId),
    runtime.store.loadJournal(task.spec.taskId),
  ]);
  const refusal = options.refuse?.(task.spec.agent);
  if (refusal) throw new TroupeError('AGENT_NOT_ALLOWED', refusal);
  const history = transcriptOf(task.spec, snapshot, journal.entries);
  if (history.length === 0)
    throw new TroupeError(
      'TASK_NOT_FOUND',
      `Task ${task.spec.taskId} has no stored conversation to continue; start a new task instead.`,
    );
  return runtime.spawnInternal({
    agent: task.spec.agent,
    prompt: message,
    description: `follow-up: ${task.spec.description}`.slice(0, 80),
    sessionKey: task.spec.sessionKey,
    ...(options.background ? { background: true } : {}),
    ...(options.announce ? { announce: true } : {}),
    ...(options.parentTaskId ? { parentTaskId: options.parentTaskId } : {}),
    history,
    followUpOf: task.spec.taskId,
  });
}

async function findTarget(
  runtime: FollowUpRuntime,
  target: string,
  sessionKey: string | undefined,
): Promise<StoredTask> {
  const byId = await runtime.store.getTask(target);
  if (byId && (sessionKey === undefined || byId.spec.sessionKey === sessionKey)) return byId;
  const agent = runtime.agents.get(target)?.name;
  const session = sessionKey ?? 'default';
  if (agent === undefined)
    throw new TroupeError(
      'TASK_NOT_FOUND',
      `No task with id "${target}"${sessionKey ? ' in this session' : ''}, and no agent of that name.`,
    );
  const page = await runtime.store.listTasks({
    agent,
    sessionKey: session,
    status: FINAL_STATUSES,
    limit: NAME_CANDIDATES,
  });
  const tasks = (
    await Promise.all(page.tasks.map((summary) => runtime.store.getTask(summary.taskId)))
  ).filter((task): task is StoredTask => task !== undefined);
  // A follow-up continues a conversation: the task it continues is no longer the one to name.
  const continued = new Set(tasks.map((task) => task.spec.followUpOf));
  const heads = tasks.filter((task) => !continued.has(task.spec.taskId));
  if (heads.length === 1) return heads[0]!;
  if (heads.length === 0)
    throw new TroupeError(
      'TASK_NOT_FOUND',
      `No finished task of agent "${agent}" in this session to follow up.`,
    );
  throw new TroupeError(
    'TASK_AMBIGUOUS',
    `Several finished tasks of agent "${agent}" are in this session (${heads
      .map((task) => `${task.spec.taskId}: ${task.spec.description}`)
      .join('; ')}); name one by its task id.`,
  );
}
