import { type AnyActorLogic, enqueueActions, setup, stopChild } from 'xstate';
import type { Message } from '../model/types.js';
import { sessionMachine } from './session-machine.js';
import type { SubagentInput, SubagentOutput } from './subagent-machine.js';
import { subagentMachine } from './subagent-machine.js';
import { emptyQueue, pushed, shifted, type TaskQueue, without } from './task-queue.js';

/** A task waiting for a slot. `logic` is set for a task restored from a snapshot. */
export interface QueuedTask {
  taskId: string;
  sessionKey: string;
  /** The task that started this one (a nested task), so an inspector can place it under its parent. */
  parentTaskId?: string;
  input: SubagentInput;
  logic?: AnyActorLogic;
}

/** A task holding a slot. */
export interface RunningTask {
  taskId: string;
  sessionKey: string;
}

/** The supervisor's context: immutable, replaced by `assign` at every change. */
export interface SupervisorContext {
  maxConcurrent: number;
  queue: TaskQueue<QueuedTask>;
  /** Never more than `maxConcurrent` entries. */
  running: readonly RunningTask[];
}

/** Events the supervisor accepts. */
export type SupervisorEvent =
  /**
   * A task to queue. `system` is its system prompt, for an inspector watching the runtime (the
   * queue keeps only `task`).
   */
  | { type: 'task.submitted'; task: QueuedTask; system?: string }
  | { type: 'task.cancelRequested'; taskId: string; reason?: string }
  | { type: 'session.cancelRequested'; sessionKey: string; reason?: string }
  | { type: 'session.opened'; actorId: string; sessionKey: string; conversation?: readonly Message[] }
  | { type: 'session.closed'; actorId: string }
  | { type: `xstate.done.actor.${string}`; output: SubagentOutput; actorId?: string };

type Reason = string | undefined;

/** The part of XState's `enqueue` that {@link startNext} uses. */
interface StartEnqueue {
  assign(values: Pick<SupervisorContext, 'queue' | 'running'>): void;
  spawnChild(src: 'subagent', options: { id: string; systemId: string; input: SubagentInput }): void;
  (action: { type: 'taskStarted'; params: { taskId: string } }): void;
}

/**
 * Gives free slots to queued tasks, in FIFO order: assigns the new queue and running set (always,
 * since `context` may carry a change of the caller's), spawns each task's actor, and declares
 * `taskStarted` for it.
 */
function startNext(context: SupervisorContext, enqueue: StartEnqueue): void {
  let { queue, running } = context;
  const started: QueuedTask[] = [];
  while (running.length < context.maxConcurrent) {
    const [next, rest] = shifted(queue);
    if (!next) break;
    queue = rest;
    running = [...running, { taskId: next.taskId, sessionKey: next.sessionKey }];
    started.push(next);
  }
  enqueue.assign({ queue, running });
  for (const next of started) {
    // A restored task brings its own logic (its machine at the stored snapshot).
    enqueue.spawnChild((next.logic ?? 'subagent') as 'subagent', {
      id: next.taskId,
      systemId: next.taskId,
      input: next.input,
    });
    enqueue({ type: 'taskStarted', params: { taskId: next.taskId } });
  }
}

/**
 * The supervisor, root of a runtime's actor system. At most `maxConcurrent` subagent actors run
 * as its children; the rest wait in FIFO order. It cancels one task or a whole session, stops
 * finished children so the live set stays small however many tasks are queued or done, and holds
 * one session actor per open session (whose main-agent runs are that actor's children).
 *
 * Its effects are declared actions with no behaviour of their own; the runtime provides them
 * (`supervisorMachine.provide({ actions })`): `taskStarted` (a task got a slot: its actor is
 * spawned, with `systemId` = task id, and starts after the action), `taskDropped` (a queued task
 * was cancelled before it started) and `cancelRunning` (a running task must be cancelled: the
 * runtime feeds the cancel through its driver, journaled).
 */
export const supervisorMachine = setup({
  types: {
    context: {} as SupervisorContext,
    events: {} as SupervisorEvent,
    input: {} as { maxConcurrent: number },
  },
  actors: { subagent: subagentMachine, session: sessionMachine },
  actions: {
    taskStarted: (_, _params: { taskId: string }) => {},
    taskDropped: (_, _params: { taskId: string; reason: Reason }) => {},
    cancelRunning: (_, _params: { taskId: string; reason: Reason }) => {},
  },
}).createMachine({
  id: 'supervisor',
  context: ({ input }) => ({ maxConcurrent: input.maxConcurrent, queue: emptyQueue(), running: [] }),
  initial: 'active',
  states: {
    active: {
      on: {
        'task.submitted': {
          actions: enqueueActions(({ context, event, enqueue }) =>
            startNext({ ...context, queue: pushed(context.queue, event.task) }, enqueue),
          ),
        },
        'task.cancelRequested': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const reason = event.reason;
            if (context.running.some((task) => task.taskId === event.taskId)) {
              enqueue({ type: 'cancelRunning', params: { taskId: event.taskId, reason } });
              return;
            }
            const [removed, queue] = without(context.queue, (task) => task.taskId === event.taskId);
            if (!removed.length) return;
            enqueue.assign({ queue });
            for (const task of removed)
              enqueue({ type: 'taskDropped', params: { taskId: task.taskId, reason } });
          }),
        },
        'session.cancelRequested': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const reason = event.reason;
            const [removed, queue] = without(context.queue, (task) => task.sessionKey === event.sessionKey);
            if (removed.length) enqueue.assign({ queue });
            for (const task of removed)
              enqueue({ type: 'taskDropped', params: { taskId: task.taskId, reason } });
            for (const task of context.running)
              if (task.sessionKey === event.sessionKey)
                enqueue({ type: 'cancelRunning', params: { taskId: task.taskId, reason } });
          }),
        },
        'session.opened': {
          actions: enqueueActions(({ event, enqueue }) =>
            enqueue.spawnChild('session', {
              id: event.actorId,
              systemId: event.actorId,
              input: event.conversation
                ? { sessionKey: event.sessionKey, conversation: event.conversation }
                : { sessionKey: event.sessionKey },
            }),
          ),
        },
        'session.closed': { actions: stopChild(({ event }) => event.actorId) },
        'xstate.done.actor.*': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const taskId = event.type.slice('xstate.done.actor.'.length);
            if (!context.running.some((task) => task.taskId === taskId)) return;
            enqueue.stopChild(taskId);
            startNext(
              { ...context, running: context.running.filter((task) => task.taskId !== taskId) },
              enqueue,
            );
          }),
        },
      },
    },
  },
});

/** The supervisor machine's logic type. */
export type SupervisorMachine = typeof supervisorMachine;
