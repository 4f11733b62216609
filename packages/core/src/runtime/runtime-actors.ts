import { type Actor, type AnyActorRef, createActor, type InspectionEvent, type Observer } from 'xstate';
import { sessionMachine } from '../machines/session-machine.js';
import { type SubagentMachine, subagentMachine } from '../machines/subagent-machine.js';
import { type SupervisorMachine, supervisorMachine } from '../machines/supervisor-machine.js';
import { createEffectActors, type RunLookup } from './effects/effect-actors.js';
import type { SubagentRef } from './subagent-snapshot.js';

/** The runtime's root actor: the supervisor, with tasks and sessions as its descendants. */
export type SupervisorActor = Actor<SupervisorMachine>;

/** What the runtime's actor system reports to the runtime, and asks of it. */
export interface ActorSystemHooks {
  maxConcurrent: number;
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void) | undefined;
  /** Finds the run of a subagent actor (a task's or a main agent's), for its effects. */
  runOf: RunLookup;
  /** The supervisor spawned a task's actor (`ref`: undefined if it is already gone). */
  taskStarted(taskId: string, ref: SubagentRef | undefined): void;
  /** The supervisor dropped a queued task (cancelled before it started). */
  taskDropped(taskId: string, reason: string | undefined): void;
  /** The supervisor was asked to cancel a running task. */
  cancelRunning(taskId: string, reason: string | undefined): void;
  /** A session's actor spawned the main-agent run `runId` (its actor `actor`). */
  runStarted(sessionActorId: string, runId: string, actor: SubagentRef): void;
}

/**
 * @internal Starts the runtime's one actor system: the supervisor at its root, tasks and sessions
 * (with their main-agent runs) its descendants, so one `inspect` observer sees every actor. The
 * subagent machine (tasks' and main agents' alike) is given its effects performed for real; it is
 * returned with the supervisor, for restored and forked tasks' logic.
 */
export function startActorSystem(hooks: ActorSystemHooks): {
  supervisor: SupervisorActor;
  subagent: SubagentMachine;
} {
  const subagent = subagentMachine.provide({
    actors: createEffectActors((actor: AnyActorRef | undefined) => hooks.runOf(actor)),
  });
  const machine = supervisorMachine.provide({
    actions: {
      taskStarted: ({ system }, { taskId }) => hooks.taskStarted(taskId, system.get(taskId)),
      taskDropped: (_, { taskId, reason }) => hooks.taskDropped(taskId, reason),
      cancelRunning: (_, { taskId, reason }) => hooks.cancelRunning(taskId, reason),
    },
    actors: {
      subagent,
      session: sessionMachine.provide({
        actors: { mainAgent: subagent },
        actions: {
          runStarted: ({ system, self }, { runId }) => {
            const actor: SubagentRef | undefined = system.get(`${self.id}/${runId}`);
            if (actor) hooks.runStarted(self.id, runId, actor);
          },
        },
      }),
    },
  });
  const supervisor = createActor(machine, {
    id: 'supervisor',
    systemId: 'supervisor',
    input: { maxConcurrent: hooks.maxConcurrent },
    ...(hooks.inspect ? { inspect: hooks.inspect } : {}),
  });
  supervisor.start();
  return { supervisor, subagent };
}
