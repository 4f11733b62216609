import { type ActorRef, and, enqueueActions, type Snapshot, setup } from 'xstate';
import type { Message } from '../model/types.js';
import { closeConversation, ownOutput, replyText } from './session-conversation.js';
import type { SubagentContext, SubagentInput, SubagentOutput } from './subagent-machine.js';
import { subagentMachine } from './subagent-machine.js';

/**
 * A session actor's context: its key, its conversation, the runs planned for messages that wait
 * for the one in progress, and that run's id.
 */
export interface SessionContext {
  sessionKey: string;
  /** The conversation so far: what the next run starts from. */
  conversation: readonly Message[];
  /** Runs planned for messages that arrived while another ran, oldest first. */
  queue: readonly SubagentInput[];
  /** The id of the main-agent run in progress, if any. */
  run: string | undefined;
  /** How many messages the run in progress started with: what it produced is the rest. */
  runFrom: number;
}

/** Events a session actor accepts. */
export type SessionEvent =
  /**
   * A user message (or an announcement), with the run planned for it (`messages` = that turn) and
   * the run's system prompt, for an inspector watching the runtime.
   */
  | { type: 'message.received'; run: SubagentInput; system?: string }
  /** Forget the conversation; ignored while a run is in progress or waiting. */
  | { type: 'conversation.cleared' }
  | { type: `xstate.done.actor.${string}`; output: SubagentOutput; actorId?: string };

/** What a session actor tells its listeners: a run's reply (its output keeps only what it produced). */
export type SessionEmitted = { type: 'run.replied'; runId: string; text: string; output: SubagentOutput };

/** `runStarted` with the run `startNext` has just spawned. */
const started = {
  type: 'runStarted',
  params: ({ context }: { context: SessionContext }) => ({ runId: context.run! }),
} as const;

type RunRef = ActorRef<Snapshot<unknown> & { context?: SubagentContext }, never>;

/**
 * A main-agent session, child of the supervisor. It holds the conversation and the messages that
 * wait: `idle` until a message arrives, then `running` with one run at a time (a subagent machine,
 * `systemId` = `<session actor id>/<run id>`, starting from the conversation plus that message) as
 * its child. When the run ends, its conversation (unanswered tool calls closed) becomes the
 * session's, its reply is emitted (`run.replied`), and the next waiting message starts its run.
 *
 * `runStarted` is declared and provided by the runtime, which hands the run's actor (system id
 * `<session actor id>/<run id>`) to its `TaskRun` (the run starts after the action).
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as { sessionKey: string; conversation?: readonly Message[] },
    emitted: {} as SessionEmitted,
  },
  actors: { mainAgent: subagentMachine },
  actions: {
    runStarted: (_, _params: { runId: string }) => {},
    /** Starts the run of the oldest waiting message, from the conversation plus that message. */
    startNext: enqueueActions(({ context, enqueue, self }) => {
      const [next, ...rest] = context.queue;
      if (!next) return;
      const messages = [...context.conversation, ...next.messages];
      const runId = next.taskId;
      const systemId = `${self.id}/${runId}`;
      enqueue.assign({ queue: rest, run: runId, runFrom: messages.length });
      enqueue.spawnChild('mainAgent', { id: runId, systemId, input: { ...next, messages } });
    }),
    queueRun: enqueueActions(({ context, event, enqueue }) => {
      if (event.type === 'message.received') enqueue.assign({ queue: [...context.queue, event.run] });
    }),
    /** The run ended: its conversation becomes the session's, and its reply is emitted. */
    finishRun: enqueueActions(({ context, event, enqueue, self }) => {
      const runId = context.run;
      if (!runId || !('output' in event)) return;
      const child = self.getSnapshot().children[runId] as RunRef | undefined;
      const messages = child?.getSnapshot().context?.messages ?? context.conversation;
      const output = ownOutput(event.output, messages.slice(context.runFrom));
      enqueue.stopChild(runId);
      enqueue.assign({ conversation: closeConversation(messages, event.output), run: undefined, runFrom: 0 });
      enqueue.emit({ type: 'run.replied', runId, text: replyText(output), output });
    }),
  },
  guards: {
    hasWaiting: ({ context }) => context.queue.length > 0,
    isRunDone: ({ context, event }) => event.type === `xstate.done.actor.${context.run}`,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    sessionKey: input.sessionKey,
    conversation: input.conversation ?? [],
    queue: [],
    run: undefined,
    runFrom: 0,
  }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'message.received': { target: 'running', actions: ['queueRun', 'startNext', started] },
        'conversation.cleared': {
          actions: enqueueActions(({ enqueue }) => enqueue.assign({ conversation: [] })),
        },
      },
    },
    running: {
      on: {
        'message.received': { actions: 'queueRun' },
        'xstate.done.actor.*': [
          { guard: and(['isRunDone', 'hasWaiting']), actions: ['finishRun', 'startNext', started] },
          { guard: 'isRunDone', target: 'idle', actions: 'finishRun' },
        ],
      },
    },
  },
});
