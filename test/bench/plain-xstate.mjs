// The benchmark workload written in plain XState the obvious way, as the reference troupe is
// measured against (issue #10): a parent machine keeps the queue and spawns one child machine per
// sub-agent up to the limit, stopping finished children; the model call and the tool call are
// invoked promise actors; every context change is an immutable `assign`.
import { assign, createActor, fromPromise, sendParent, setup, stopChild } from 'xstate';
import { lookupTool, zeroLatencyModel } from './workload.mjs';

const MAX_CONCURRENT = 5;
const lookupSpec = {
  name: lookupTool.name,
  description: lookupTool.description,
  input_schema: lookupTool.inputJsonSchema,
};

const agentMachine = setup({
  actors: {
    model: fromPromise(({ input, signal }) => zeroLatencyModel.generate(input, signal)),
    tool: fromPromise(({ input, signal }) =>
      lookupTool.execute(input.input, { signal, taskId: input.taskId, agent: 'worker', toolUseId: input.id }),
    ),
  },
}).createMachine({
  id: 'agent',
  context: ({ input }) => ({
    taskId: input.taskId,
    messages: [{ role: 'user', content: input.prompt }],
    turns: 0,
    expectedTurns: input.expectedTurns,
    pending: undefined,
    answer: undefined,
  }),
  initial: 'thinking',
  states: {
    thinking: {
      invoke: {
        src: 'model',
        input: ({ context }) => ({
          model: 'm',
          system: 'You work.',
          messages: context.messages,
          tools: [lookupSpec],
          maxTokens: 1024,
        }),
        onDone: [
          {
            guard: ({ event }) => event.output.content.some((block) => block.type === 'tool_use'),
            target: 'acting',
            actions: assign(({ context, event }) => ({
              messages: [...context.messages, { role: 'assistant', content: event.output.content }],
              turns: context.turns + 1,
              pending: event.output.content.find((block) => block.type === 'tool_use'),
            })),
          },
          {
            target: 'done',
            actions: assign(({ context, event }) => ({
              messages: [...context.messages, { role: 'assistant', content: event.output.content }],
              turns: context.turns + 1,
              answer: event.output.content.find((block) => block.type === 'text')?.text,
            })),
          },
        ],
        onError: 'failed',
      },
    },
    acting: {
      invoke: {
        src: 'tool',
        input: ({ context }) => ({ ...context.pending, taskId: context.taskId }),
        onDone: {
          target: 'thinking',
          actions: assign(({ context, event }) => ({
            messages: [
              ...context.messages,
              {
                role: 'user',
                content: [{ type: 'tool_result', tool_use_id: context.pending.id, content: event.output }],
              },
            ],
            pending: undefined,
          })),
        },
        onError: 'failed',
      },
    },
    done: {
      entry: sendParent(({ context }) => ({
        type: 'agent.finished',
        taskId: context.taskId,
        turns: context.turns,
        expectedTurns: context.expectedTurns,
        answer: context.answer,
      })),
      type: 'final',
    },
    failed: {
      entry: sendParent(({ context }) => ({ type: 'agent.finished', taskId: context.taskId, failed: true })),
      type: 'final',
    },
  },
});

const parentMachine = setup({
  actors: { agent: agentMachine },
  actions: {
    startNext: assign(({ context, spawn }) => {
      const free = MAX_CONCURRENT - context.running.length;
      if (free <= 0 || context.queue.length === 0) return {};
      const starting = context.queue.slice(0, free);
      return {
        queue: context.queue.slice(free),
        running: [
          ...context.running,
          ...starting.map((task) => {
            spawn('agent', { id: task.taskId, input: task });
            return task.taskId;
          }),
        ],
      };
    }),
  },
}).createMachine({
  id: 'supervisor',
  context: { queue: [], running: [], finished: 0, wrong: 0 },
  on: {
    'task.spawn': {
      actions: [
        assign(({ context, event }) => ({
          queue: [
            ...context.queue,
            { taskId: event.taskId, prompt: event.prompt, expectedTurns: event.expectedTurns },
          ],
        })),
        'startNext',
      ],
    },
    'agent.finished': {
      actions: [
        stopChild(({ event }) => event.taskId),
        assign(({ context, event }) => ({
          running: context.running.filter((id) => id !== event.taskId),
          finished: context.finished + 1,
          wrong: context.wrong + (event.failed || event.turns !== event.expectedTurns ? 1 : 0),
        })),
        'startNext',
      ],
    },
  },
});

/** Runs `tasks` tasks through the plain-XState implementation; resolves with the elapsed ms. */
export async function runPlainXState(tasks, turnsPerTask) {
  const actor = createActor(parentMachine);
  const finished = new Promise((resolve) => {
    const subscription = actor.subscribe((snapshot) => {
      if (snapshot.context.finished === tasks) {
        subscription.unsubscribe();
        resolve(snapshot.context.wrong);
      }
    });
  });
  actor.start();
  const started = performance.now();
  for (let index = 0; index < tasks; index++)
    actor.send({
      type: 'task.spawn',
      taskId: `task-${index}`,
      prompt: `task ${index}`,
      expectedTurns: turnsPerTask,
    });
  const wrong = await finished;
  const elapsed = performance.now() - started;
  actor.stop();
  if (wrong > 0) throw new Error(`bench: ${wrong} plain-XState tasks did not complete as scripted`);
  return elapsed;
}
