// The ways a task can end, each recorded by a real runtime: the table `runReplaySuite` replays.
import * as v from 'valibot';
import type { AgentDefinition } from '../definitions/types.js';
import { ModelError } from '../errors.js';
import type { ModelRequest } from '../model/types.js';
import type { TaskResult, TaskStore, TerminateReason } from '../persistence/types.js';
import { createRuntime, type Runtime } from '../runtime/create-runtime.js';
import { echoTool, hang } from '../runtime/test-fixtures.js';
import { isGraceRequest } from '../testing/grace-request.js';
import { type ManualClock, manualClock } from '../testing/manual-clock.js';
import { type ScriptedReply, scriptedModel, textReply, toolReply } from '../testing/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';

/** One row of the table: how a task is run, and how it must end. */
export interface ReplayScenario {
  name: string;
  reason: TerminateReason;
  /** The task ends after a grace turn (its machine passes through `grace`). */
  grace: boolean;
  /** The task is given steering messages (`task.steered` journal events). */
  steered: boolean;
  agent: 'explore' | 'writer' | 'reporter';
  limits?: { maxTurns?: number; timeoutMs?: number; tokenBudget?: number };
  approval?: 'ask';
  graceMs?: number;
  /** The model: a reply, or a promise the test settles (`gate`), or one that never answers. */
  reply: (request: ModelRequest, signal: AbortSignal, gate: Gate) => ScriptedReply | Promise<ScriptedReply>;
  /** Moves the run along (steers, advances the clock, cancels) once the task is spawned. */
  drive?: (run: Run) => Promise<void>;
  /** Another task holds the only slot until the drive is done: the task waits in the queue. */
  queued?: boolean;
  /**
   * After the drive, the runtime shuts down keeping its tasks, and a second runtime over the store
   * reopened (another process) restores the task; this drives it to its end.
   */
  restarted?: (run: Run) => Promise<void>;
}

interface Run {
  runtime: Runtime;
  clock: ManualClock;
  id: string;
  gate: Gate;
}

/** A promise a scenario's model waits on until its driver opens it. */
interface Gate {
  wait: Promise<void>;
  open(): void;
}

function gate(): Gate {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}

const turnOf = (request: ModelRequest) => request.messages.filter((m) => m.role === 'assistant').length + 1;
const grace = isGraceRequest;

/** Lets pending promise callbacks run (no timers involved). */
export async function settle(rounds = 30): Promise<void> {
  for (let index = 0; index < rounds; index++) await Promise.resolve();
}

const overloaded = () => {
  throw new ModelError('MODEL_OVERLOADED', 'The API is overloaded (529).', { status: 529 });
};

/** Every terminate reason, with and without a grace turn, with and without steering. */
export const replayScenarios: ReplayScenario[] = [
  {
    name: 'GOAL: a tool call, then an answer',
    reason: 'GOAL',
    grace: false,
    steered: false,
    agent: 'explore',
    reply: (request) => (turnOf(request) === 1 ? toolReply('echo', { text: 'a' }) : textReply('found it')),
  },
  {
    name: 'GOAL: steered twice during a model call',
    reason: 'GOAL',
    grace: false,
    steered: true,
    agent: 'explore',
    reply: async (request, _signal, { wait }) => {
      const turn = turnOf(request);
      if (turn === 1) {
        await wait;
        return toolReply('echo', { text: 'a' });
      }
      return textReply(`answer ${turn}`);
    },
    drive: async ({ runtime, id, gate }) => {
      await settle();
      runtime.steer(id, 'Look in src/auth only.');
      runtime.steer(id, 'And list open questions.');
      gate.open();
    },
  },
  {
    name: 'GOAL: steered while answering (one more turn to read the message)',
    reason: 'GOAL',
    grace: false,
    steered: true,
    agent: 'explore',
    reply: async (request, _signal, { wait }) => {
      if (turnOf(request) === 1) await wait;
      return textReply(`answer ${turnOf(request)}`);
    },
    drive: async ({ runtime, id, gate }) => {
      await settle();
      runtime.steer(id, 'Also list the open questions.');
      gate.open();
    },
  },
  {
    name: 'GOAL: steered while queued behind another task',
    reason: 'GOAL',
    grace: false,
    steered: true,
    agent: 'explore',
    queued: true,
    reply: (request) => textReply(`answer ${turnOf(request)}`),
    drive: async ({ runtime, id }) => {
      await settle();
      runtime.steer(id, 'Start with the README.');
    },
  },
  {
    name: 'GOAL: a write awaiting approval when the runtime stopped; restored by another, approved',
    reason: 'GOAL',
    grace: false,
    steered: false,
    agent: 'writer',
    approval: 'ask',
    reply: (request) => (turnOf(request) === 1 ? toolReply('save', { note: 'n' }) : textReply('saved')),
    drive: () => settle(),
    restarted: async ({ runtime }) => {
      await settle();
      for (const request of runtime.pendingApprovals()) runtime.approve(request.id);
    },
  },
  {
    name: 'TIMEOUT: a model call in flight when the runtime stopped; restored, steered, out of time',
    reason: 'TIMEOUT',
    grace: true,
    steered: true,
    agent: 'explore',
    limits: { timeoutMs: 10_000 },
    reply: (request, signal) => (grace(request) ? textReply('out of time') : hang(signal)),
    drive: async ({ clock }) => {
      await settle();
      clock.advance(4_000);
    },
    restarted: async ({ runtime, clock, id }) => {
      await settle();
      runtime.steer(id, 'Any news?');
      clock.advance(6_000);
    },
  },
  {
    name: 'GOAL: one write approved, one denied',
    reason: 'GOAL',
    grace: false,
    steered: false,
    agent: 'writer',
    approval: 'ask',
    reply: (request) =>
      turnOf(request) <= 2
        ? toolReply('save', { note: `n${turnOf(request)}` })
        : textReply('wrote what I could'),
    drive: async ({ runtime }) => {
      let asked = 0;
      runtime.on('approval.requested', (request) => {
        asked++;
        if (asked === 1) runtime.approve(request.id);
        else runtime.deny(request.id, 'not that one');
      });
    },
  },
  {
    name: 'MAX_TURNS: the grace turn answers',
    reason: 'MAX_TURNS',
    grace: true,
    steered: false,
    agent: 'explore',
    limits: { maxTurns: 2 },
    reply: (request) => (grace(request) ? textReply('best effort') : toolReply('echo', { text: 'again' })),
  },
  {
    name: 'MAX_TURNS: steered, then the grace turn answers',
    reason: 'MAX_TURNS',
    grace: true,
    steered: true,
    agent: 'explore',
    limits: { maxTurns: 2 },
    reply: async (request, _signal, { wait }) => {
      if (grace(request)) return textReply('best effort');
      if (turnOf(request) === 1) await wait;
      return toolReply('echo', { text: `t${turnOf(request)}` });
    },
    drive: async ({ runtime, id, gate }) => {
      await settle();
      runtime.steer(id, 'Hurry up.');
      gate.open();
    },
  },
  {
    name: 'MAX_TURNS: the grace turn fails',
    reason: 'MAX_TURNS',
    grace: true,
    steered: false,
    agent: 'explore',
    limits: { maxTurns: 1 },
    reply: (request) => (grace(request) ? overloaded() : toolReply('echo', { text: 'once' })),
  },
  {
    name: 'MAX_TURNS: the grace turn does not answer in time',
    reason: 'MAX_TURNS',
    grace: true,
    steered: false,
    agent: 'explore',
    limits: { maxTurns: 1 },
    graceMs: 2_000,
    reply: (request, signal) => (grace(request) ? hang(signal) : toolReply('echo', { text: 'once' })),
    drive: async ({ clock }) => {
      await settle();
      clock.advance(2_000);
    },
  },
  {
    name: 'TIMEOUT: the deadline stops a model call, the grace turn answers',
    reason: 'TIMEOUT',
    grace: true,
    steered: false,
    agent: 'explore',
    limits: { timeoutMs: 10_000 },
    reply: (request, signal) => (grace(request) ? textReply('out of time') : hang(signal)),
    drive: async ({ clock }) => {
      await settle();
      clock.advance(10_000);
    },
  },
  {
    name: 'TIMEOUT: the deadline stops a tool call, steered meanwhile; the grace turn does not answer',
    reason: 'TIMEOUT',
    grace: true,
    steered: true,
    agent: 'explore',
    limits: { timeoutMs: 5_000 },
    graceMs: 1_000,
    reply: (request, signal) => (grace(request) ? hang(signal) : toolReply('wait', {})),
    drive: async ({ runtime, clock, id }) => {
      await settle();
      clock.advance(1_000);
      runtime.steer(id, 'Stop waiting.');
      clock.advance(4_000);
      await settle();
      clock.advance(1_000);
    },
  },
  {
    name: 'TOKEN_LIMIT: over budget at a turn boundary',
    reason: 'TOKEN_LIMIT',
    grace: false,
    steered: false,
    agent: 'explore',
    limits: { tokenBudget: 1_000 },
    reply: () => toolReply('echo', { text: 'big' }, { usage: { input: 400, output: 200 } }),
  },
  {
    name: 'ABORTED: cancelled during a model call, after a steering message',
    reason: 'ABORTED',
    grace: false,
    steered: true,
    agent: 'explore',
    reply: (_request, signal) => hang(signal),
    drive: async ({ runtime, id }) => {
      await settle();
      runtime.steer(id, 'Never mind the tests.');
      runtime.cancel(id, 'changed my mind');
    },
  },
  {
    name: 'ABORTED: cancelled during the grace turn',
    reason: 'ABORTED',
    grace: true,
    steered: false,
    agent: 'explore',
    limits: { maxTurns: 1 },
    reply: (request, signal) => (grace(request) ? hang(signal) : toolReply('echo', { text: 'once' })),
    drive: async ({ runtime, id }) => {
      await settle();
      runtime.cancel(id);
    },
  },
  {
    name: 'ERROR: the model fails',
    reason: 'ERROR',
    grace: false,
    steered: false,
    agent: 'explore',
    reply: overloaded,
  },
  {
    name: 'ERROR: the final answer does not match the output schema, twice',
    reason: 'ERROR',
    grace: false,
    steered: false,
    agent: 'reporter',
    limits: { maxTurns: 2 },
    reply: () => textReply('not JSON'),
  },
];

const agents: AgentDefinition[] = [
  { name: 'explore', description: 'Reads things.', systemPrompt: 'You explore.', tools: ['echo', 'wait'] },
  { name: 'writer', description: 'Writes notes.', systemPrompt: 'You write.', tools: ['echo', 'save'] },
  {
    name: 'reporter',
    description: 'Reports.',
    systemPrompt: 'You report.',
    tools: ['echo'],
    outputSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
  },
];

const tools = [
  echoTool,
  defineTool({
    name: 'save',
    description: 'Write a note',
    access: 'write',
    input: v.object({ note: v.string() }),
    execute: ({ note }) => `saved ${note}`,
  }),
  defineTool({
    name: 'wait',
    description: 'Wait until stopped',
    access: 'read',
    input: v.object({}),
    execute: (_input, context) =>
      new Promise<string>((_resolve, reject) =>
        context.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
      ),
  }),
];

/**
 * Runs `scenario` with a real runtime over `store` (manual clock, scripted model) and flushes it.
 * A scenario with `restarted` is finished by a second runtime over `reopen(store)`.
 */
export async function recordScenario(
  scenario: ReplayScenario,
  store: TaskStore,
  reopen: (store: TaskStore) => Promise<TaskStore> = async (same) => same,
): Promise<{ id: string; result: TaskResult }> {
  const clock = manualClock();
  const opened = gate();
  const runtimeOver = (over: TaskStore) =>
    createRuntime({
      model: scriptedModel((request, { signal }) =>
        request.messages[0]?.content === 'hold the slot'
          ? hang(signal)
          : scenario.reply(request, signal, opened),
      ),
      tools,
      agents,
      clock,
      store: over,
      approval: scenario.approval ?? 'auto',
      ...(scenario.graceMs ? { graceMs: scenario.graceMs } : {}),
      ...(scenario.queued ? { limits: { maxConcurrent: 1 } } : {}),
    });
  const runtime = runtimeOver(store);
  const blocker = scenario.queued ? runtime.spawn({ agent: 'explore', prompt: 'hold the slot' }) : undefined;
  const handle = runtime.spawn({
    agent: scenario.agent,
    prompt: `Scenario: ${scenario.name}`,
    ...(scenario.limits ? { limits: scenario.limits } : {}),
  });
  await scenario.drive?.({ runtime, clock, id: handle.id, gate: opened });
  if (blocker) runtime.cancel(blocker.id);
  if (!scenario.restarted) {
    const result = await handle.result;
    await runtime.shutdown();
    return { id: handle.id, result };
  }
  await runtime.shutdown({ keepTasks: true });
  const second = runtimeOver(await reopen(store));
  const { restored } = await second.restore();
  if (!restored.includes(handle.id)) throw new Error(`${scenario.name}: the task was not restored`);
  await scenario.restarted({ runtime: second, clock, id: handle.id, gate: opened });
  const result = await second.result(handle.id);
  await second.shutdown();
  if (!result) throw new Error(`${scenario.name}: no result after the restore`);
  return { id: handle.id, result };
}
