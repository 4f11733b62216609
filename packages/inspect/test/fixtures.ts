// Live runs recorded with the recorder, over a memory store: one per way a task can end.
import {
  createMemoryStore,
  createRuntime,
  type ModelRequest,
  type RuntimeOptions,
  type TaskResult,
  type TaskStore,
} from '@troupe/core';
import {
  echoAndSaveTools,
  hang,
  isGraceRequest,
  manualClock,
  type ScriptedReply,
  scriptedModel,
  textReply,
  toolReply,
  turnOf,
} from '@troupe/core/testing';
import { createRecorder } from '../src/timeline/recorder.js';
import type { Timeline } from '../src/timeline/types.js';

export const API_KEY = 'sk-ant-api03-THISISNOTAREALKEYbutlooksLikeOne0123456789';

/** Model and tools that count every touch and throw once `armed.throws` is set. */
export function guardedEffects() {
  const armed = { throws: false, touches: 0 };
  const touch = (what: string) => {
    armed.touches++;
    if (armed.throws) throw new Error(`${what} was touched during a replay`);
  };
  const tools = echoAndSaveTools({
    onCall: ({ tool }) => touch(tool),
    savedAnswer: (note) => `saved ${note} with key ${API_KEY}`,
  });
  return { armed, touch, tools };
}

export async function settle(rounds = 40): Promise<void> {
  for (let index = 0; index < rounds; index++) await new Promise((resolve) => setImmediate(resolve));
}

/** A recorded live run. */
export interface RecordedRun {
  name: string;
  store: TaskStore;
  timeline: Timeline;
  results: TaskResult[];
  armed: { throws: boolean; touches: number };
}

type Reply = (request: ModelRequest, signal: AbortSignal) => ScriptedReply | Promise<ScriptedReply>;

async function record(
  name: string,
  reply: Reply,
  drive: (
    runtime: ReturnType<typeof createRuntime>,
    clock: ReturnType<typeof manualClock>,
  ) => Promise<TaskResult[]>,
  options: Partial<RuntimeOptions> = {},
  store: TaskStore = createMemoryStore(),
): Promise<RecordedRun> {
  const clock = manualClock();
  const effects = guardedEffects();
  const recorder = createRecorder({ now: clock.now, secrets: [API_KEY] });
  const runtime = createRuntime({
    model: scriptedModel((request, { signal }) => {
      effects.touch('model');
      return reply(request, signal);
    }),
    tools: effects.tools,
    agents: [
      { name: 'explore', description: 'Reads.', systemPrompt: 'You explore.', tools: ['echo'] },
      { name: 'writer', description: 'Writes.', systemPrompt: 'You write.', tools: ['echo', 'save'] },
    ],
    clock,
    store,
    approval: 'auto',
    inspect: recorder.inspect,
    ...options,
  });
  const results = await drive(runtime, clock);
  await runtime.shutdown({ keepTasks: true });
  return { name, store, timeline: recorder.timeline(), results, armed: effects.armed };
}

const spawnOne = (agent: string, prompt: string) => async (runtime: ReturnType<typeof createRuntime>) => [
  await runtime.spawn({ agent, prompt, sessionKey: 's1' }).result,
];

/** One recorded run per terminate reason, with approvals and grace turns. */
export const scenarios: Record<string, () => Promise<RecordedRun>> = {
  goal: () =>
    record(
      'GOAL',
      (request) => (turnOf(request) === 1 ? toolReply('echo', { text: 'a' }) : textReply('found it')),
      spawnOne('explore', 'find a'),
    ),
  maxTurns: () =>
    record(
      'MAX_TURNS (grace turn)',
      (request) =>
        isGraceRequest(request) ? textReply('best effort') : toolReply('echo', { text: 'again' }),
      spawnOne('explore', 'loop'),
      { limits: { maxTurns: 2 } },
    ),
  tokenLimit: () =>
    record(
      'TOKEN_LIMIT',
      () => toolReply('echo', { text: 'big' }, { usage: { input: 600, output: 500 } }),
      spawnOne('explore', 'spend'),
      { limits: { tokenBudget: 1000 } },
    ),
  timeout: () =>
    record(
      'TIMEOUT (grace turn)',
      (request, signal) => (isGraceRequest(request) ? textReply('ran out of time') : hang(signal)),
      async (runtime, clock) => {
        const handle = runtime.spawn({ agent: 'explore', prompt: 'slow', sessionKey: 's1' });
        await settle();
        clock.advance(10_000);
        await settle();
        return [await handle.result];
      },
      { limits: { timeoutMs: 10_000 } },
    ),
  aborted: () =>
    record(
      'ABORTED',
      (_request, signal) => hang(signal),
      async (runtime) => {
        const handle = runtime.spawn({ agent: 'explore', prompt: 'cancel me', sessionKey: 's1' });
        await settle();
        runtime.cancel(handle.id, 'changed my mind');
        return [await handle.result];
      },
    ),
  error: () =>
    record(
      'ERROR',
      () => {
        throw Object.assign(new Error('model exploded'), { status: 400 });
      },
      spawnOne('explore', 'fail'),
    ),
  approvals: () =>
    record(
      'approvals (approve, deny)',
      (request) =>
        turnOf(request) <= 2
          ? toolReply('save', { note: `n${turnOf(request)}` })
          : textReply('wrote what I could'),
      async (runtime) => {
        let asked = 0;
        runtime.on('approval.requested', (request) => {
          asked++;
          if (asked === 1) runtime.approve(request.id);
          else runtime.deny(request.id, 'not that one');
        });
        return [await runtime.spawn({ agent: 'writer', prompt: 'write two', sessionKey: 's1' }).result];
      },
      { approval: 'ask' },
    ),
};
