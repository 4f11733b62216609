import type { RuntimeEventName, RuntimeEvents } from '../events.js';
import type { TaskQuery, TaskResult } from '../persistence/types.js';
import type { FollowUpOptions } from './follow-up.js';
import type { SpawnOptions } from './spawn-options.js';
import type { TaskHandle } from './task-handle.js';
import type { TaskInfo } from './task-info.js';

/** A value, or a promise of it: what a call returns at once locally and after a round trip remotely. */
export type Awaitable<T> = T | Promise<T>;

/** One page of {@link TaskClient.history}. */
export interface TaskHistoryPage {
  tasks: TaskInfo[];
  /** Present when older tasks match: pass it as `cursor` for the next page. */
  cursor?: string;
}

/**
 * What a host does with tasks, wherever they run: the local {@link Runtime} and
 * `@troupe/postgres`'s `ClusterClient` both implement it, so an app written against it runs
 * either. Calls that a runtime answers at once and a cluster answers after a round trip to
 * Postgres return an {@link Awaitable}: `await` them. Bad input (unknown agent, empty prompt,
 * input failing an agent's schema) throws synchronously from `spawn`; task failures are data on
 * the result.
 */
export interface TaskClient {
  /** Starts a sub-agent task (queued until a slot is free). Throws on bad input. */
  spawn(options: SpawnOptions): TaskHandle;
  /** A task's information, live if it runs, else as stored. Undefined if unknown. */
  find(id: string): Promise<TaskInfo | undefined>;
  /** Tasks, newest first, filtered and paged (`limit`, then the previous page's `cursor`). */
  history(query?: TaskQuery): Promise<TaskHistoryPage>;
  /**
   * A task's result: resolves when a task that runs ends, at once for one that has ended.
   * Undefined when the task is unknown (or cannot end here). Never rejects for a task failure.
   */
  result(id: string): Promise<TaskResult | undefined>;
  /**
   * Sends a message to a queued or running task (a user message at its next turn boundary).
   * Throws (or rejects) `TASK_NOT_FOUND` for an unknown task, `TASK_ENDED` for an ended one.
   */
  steer(id: string, text: string): Awaitable<void>;
  /**
   * Continues a finished sub-agent's conversation: `message` starts a new task of the same agent and
   * session from the stored conversation of `target` (a task id, or an agent name when exactly one
   * finished task of that agent is in the session), linked to it by `followUpOf`. Works after a
   * restart and on every store. Rejects with `TASK_NOT_FOUND`, `TASK_AMBIGUOUS` (naming the
   * candidates), `TASK_RUNNING` (steer it instead), or what `spawn` throws.
   */
  followUp(target: string, message: string, options?: FollowUpOptions): Promise<TaskHandle>;
  /** Cancels a queued or running task. False if it is unknown or already ended. */
  cancel(id: string, reason?: string): Awaitable<boolean>;
  /** Cancels every queued and running task of a session. Returns how many. */
  cancelSession(sessionKey: string, reason?: string): Awaitable<number>;
  /** Approves a pending tool call. `always` remembers the tool for the task's session. */
  approve(approvalId: string, options?: { always?: boolean }): Awaitable<void>;
  /** Denies a pending tool call; the model gets the reason as an error tool result. */
  deny(approvalId: string, reason?: string): Awaitable<void>;
  /** Subscribes to an event of every task the client reaches; returns an unsubscribe function. */
  on<TName extends RuntimeEventName>(
    name: TName,
    listener: (event: RuntimeEvents[TName]) => void,
  ): () => void;
}
