import { type ActorRefFrom, type AnyActorLogic, enqueueActions, setup, stopChild } from 'xstate';
import type { SubagentInput, SubagentMachine, SubagentOutput } from './subagent-machine.js';
import { subagentMachine } from './subagent-machine.js';
import { TaskQueue } from './task-queue.js';

/** A task waiting for a slot. `logic` is set for a task restored from a snapshot. */
export interface QueuedTask {
  taskId: string;
  sessionKey: string;
  input: SubagentInput;
  logic?: AnyActorLogic;
}

/** The supervisor's context. `queue` and `running` are owned and mutated in place (see TaskQueue). */
export interface SupervisorContext {
  maxConcurrent: number;
  queue: TaskQueue<QueuedTask>;
  /** Running task id → session key. Never more than `maxConcurrent` entries. */
  running: Map<string, string>;
}

/** Events the supervisor accepts. */
export type SupervisorEvent =
  | { type: 'SUBMIT'; task: QueuedTask }
  | { type: 'CANCEL'; taskId: string; reason?: string }
  | { type: 'CANCEL_SESSION'; sessionKey: string; reason?: string }
  | { type: `xstate.done.actor.${string}`; output: SubagentOutput; actorId?: string };

/** What the runtime does when the supervisor starts, drops or hears of a task. */
export interface SupervisorHooks {
  /** A task got a slot; `ref` is its live actor (already spawned, started after this call). */
  started(taskId: string, ref: ActorRefFrom<SubagentMachine>): void;
  /** A queued task was cancelled before it started. */
  dropped(taskId: string, reason: string | undefined): void;
  /** A running task must be cancelled (the runtime feeds CANCEL through its driver, journaled). */
  cancelRunning(taskId: string, reason: string | undefined): void;
}

/**
 * The supervisor: at most `maxConcurrent` subagent actors run as its children; the rest wait in
 * FIFO order. It cancels one task or a whole session, and stops finished children so the live set
 * stays small however many tasks are queued or done.
 */
export function createSupervisorMachine(hooks: SupervisorHooks) {
  return setup({
    types: {
      context: {} as SupervisorContext,
      events: {} as SupervisorEvent,
      input: {} as { maxConcurrent: number },
    },
    actors: { subagent: subagentMachine },
    actions: {
      startNext: enqueueActions(({ context, enqueue, self }) => {
        while (context.running.size < context.maxConcurrent) {
          const next = context.queue.shift();
          if (!next) break;
          context.running.set(next.taskId, next.sessionKey);
          enqueue.spawnChild((next.logic ?? 'subagent') as 'subagent', {
            id: next.taskId,
            systemId: next.taskId,
            input: next.input,
          });
          const taskId = next.taskId;
          enqueue(() => {
            const ref = self.system.get(taskId) as ActorRefFrom<SubagentMachine> | undefined;
            if (ref) hooks.started(taskId, ref);
          });
        }
      }),
    },
  }).createMachine({
    id: 'supervisor',
    context: ({ input }) => ({
      maxConcurrent: input.maxConcurrent,
      queue: new TaskQueue<QueuedTask>(),
      running: new Map(),
    }),
    initial: 'active',
    states: {
      active: {
        on: {
          SUBMIT: {
            actions: [({ context, event }) => void context.queue.push(event.task), 'startNext'],
          },
          CANCEL: {
            actions: ({ context, event }) => {
              if (context.running.has(event.taskId)) {
                hooks.cancelRunning(event.taskId, event.reason);
                return;
              }
              const removed = context.queue.remove((task) => task.taskId === event.taskId);
              for (const task of removed) hooks.dropped(task.taskId, event.reason);
            },
          },
          CANCEL_SESSION: {
            actions: ({ context, event }) => {
              const removed = context.queue.remove((task) => task.sessionKey === event.sessionKey);
              for (const task of removed) hooks.dropped(task.taskId, event.reason);
              for (const [taskId, sessionKey] of [...context.running]) {
                if (sessionKey === event.sessionKey) hooks.cancelRunning(taskId, event.reason);
              }
            },
          },
          'xstate.done.actor.*': {
            actions: [
              enqueueActions(({ context, event, enqueue }) => {
                const taskId = event.type.slice('xstate.done.actor.'.length);
                if (!context.running.delete(taskId)) return;
                enqueue(stopChild(taskId));
              }),
              'startNext',
            ],
          },
        },
      },
    },
  });
}

/** The supervisor machine's logic type. */
export type SupervisorMachine = ReturnType<typeof createSupervisorMachine>;
