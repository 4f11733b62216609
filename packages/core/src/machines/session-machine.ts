import { enqueueActions, setup } from 'xstate';
import type { SubagentInput, SubagentOutput } from './subagent-machine.js';
import { subagentMachine } from './subagent-machine.js';

/** A session actor's context: its key and the main-agent run in progress, if any. */
export interface SessionContext {
  sessionKey: string;
  run: string | undefined;
}

/** Events a session actor accepts. */
export type SessionEvent =
  | { type: 'run.requested'; runId: string; input: SubagentInput }
  | { type: `xstate.done.actor.${string}`; output: SubagentOutput; actorId?: string };

/**
 * A main-agent session, child of the supervisor: `idle` until a user message starts a run, then
 * `running` with that run (a subagent machine, `systemId` = `<session actor id>/<run id>`) as its
 * child until the run ends. One run at a time: the session object queues messages.
 *
 * `runStarted` is declared and provided by the runtime, which hands the run's actor to the
 * session's driver (the run starts after the action).
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as { sessionKey: string },
  },
  actors: { mainAgent: subagentMachine },
  actions: {
    runStarted: (_, _params: { runId: string; systemId: string }) => {},
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ sessionKey: input.sessionKey, run: undefined }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'run.requested': {
          target: 'running',
          actions: enqueueActions(({ event, enqueue, self }) => {
            const systemId = `${self.id}/${event.runId}`;
            enqueue.assign({ run: event.runId });
            enqueue.spawnChild('mainAgent', { id: event.runId, systemId, input: event.input });
            enqueue({ type: 'runStarted', params: { runId: event.runId, systemId } });
          }),
        },
      },
    },
    running: {
      on: {
        'xstate.done.actor.*': {
          guard: ({ context, event }) => event.type === `xstate.done.actor.${context.run}`,
          target: 'idle',
          actions: enqueueActions(({ context, enqueue }) => {
            if (context.run) enqueue.stopChild(context.run);
            enqueue.assign({ run: undefined });
          }),
        },
      },
    },
  },
});
