// Shared fixtures for the runtime's behaviour tests (not exported from the package).
import * as v from 'valibot';
import type { AgentDefinition } from '../definitions/types.js';
import type { AgentMemory } from '../memory/agent-memory.js';
import type { TaskStore } from '../persistence/types.js';
import { createMemoryStore } from '../store/memory-store.js';
import { isGraceRequest } from '../testing/grace-request.js';
import { manualClock } from '../testing/manual-clock.js';
import {
  hang,
  type Script,
  type ScriptedReply,
  scriptedModel,
  toolReply,
} from '../testing/scripted-model.js';
import { echoAndSaveTools } from '../testing/test-tools.js';
import { turnOf } from '../testing/turn-of.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';
import type { RuntimeOptions } from './runtime-options.js';

// The runtime tests import these with the fixtures; their owner is @troupe/core/testing.
export { hang, turnOf };

/** `echo`, a read tool answering `echo: <text>`; unlike {@link createFixtureTools}' it records nothing. */
export const echoTool = echoAndSaveTools()[0];

/** Calls of every fixture tool, in order. */
export function createFixtureTools() {
  const calls: { tool: string; input: unknown; taskId: string; signal: AbortSignal }[] = [];
  const [echo, save] = echoAndSaveTools({
    onCall: ({ tool, input, context }) =>
      calls.push({ tool, input, taskId: context.taskId, signal: context.signal }),
  });
  const shell = defineTool({
    name: 'shell',
    description: 'Run a command',
    access: 'execute',
    input: v.object({ command: v.string() }),
    execute: ({ command }, context) => {
      calls.push({ tool: 'shell', input: { command }, taskId: context.taskId, signal: context.signal });
      return `ran ${command}`;
    },
  });
  /** Hangs until its signal aborts. */
  const wait = defineTool({
    name: 'wait',
    description: 'Wait for a long time',
    access: 'read',
    input: v.object({}),
    execute: (_input, context) => {
      calls.push({ tool: 'wait', input: {}, taskId: context.taskId, signal: context.signal });
      return new Promise<string>((_resolve, reject) => {
        context.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      });
    },
  });
  const boom = defineTool({
    name: 'boom',
    description: 'Always fails',
    access: 'read',
    input: v.object({}),
    execute: () => {
      calls.push({ tool: 'boom', input: {}, taskId: '', signal: new AbortController().signal });
      throw new Error('disk on fire');
    },
  });
  return { calls, tools: [echo, save, shell, wait, boom] };
}

export const fixtureAgents: AgentDefinition[] = [
  {
    name: 'explore',
    description: 'Reads things.',
    systemPrompt: 'You explore.',
    tools: ['echo', 'wait', 'boom'],
  },
  { name: 'general-purpose', description: 'Does anything.', systemPrompt: 'You do anything.' },
  {
    name: 'writer',
    description: 'Writes notes.',
    systemPrompt: 'You write.',
    tools: ['echo', 'save', 'shell'],
  },
];

/** A runtime over the fixture tools and agents, with a manual clock. */
export function fixtureRuntime(
  script: Script | readonly ScriptedReply[],
  options: Partial<RuntimeOptions> = {},
) {
  const clock = manualClock();
  const model = scriptedModel(script);
  const { calls, tools } = createFixtureTools();
  const store = options.store ?? createMemoryStore();
  const runtime = createRuntime({
    model,
    tools,
    agents: fixtureAgents,
    clock,
    store,
    approval: 'auto',
    ...options,
  });
  return { runtime, model, calls, clock, store };
}

/**
 * An explore task that calls `echo` (`t<messages so far>`) every turn until its limit of 3 turns,
 * and answers `graceReply` on its grace turn; ends as {@link PAST_MAX_TURNS} when that reply's text is
 * `best effort: half done`.
 */
export function loopPastMaxTurns(graceReply: ScriptedReply) {
  const fixture = fixtureRuntime((request) =>
    isGraceRequest(request) ? graceReply : toolReply('echo', { text: `t${request.messages.length}` }),
  );
  const { result } = fixture.runtime.spawn({ agent: 'explore', prompt: 'Loop', limits: { maxTurns: 3 } });
  return { ...fixture, result };
}

/** How {@link loopPastMaxTurns} ends: failed at the limit after its grace turn, with that turn's answer. */
export const PAST_MAX_TURNS = {
  status: 'failed',
  terminateReason: 'MAX_TURNS',
  output: 'best effort: half done',
  turns: 4,
  toolCalls: 3,
} as const;

/** Resolves after pending promise callbacks have run (no timers involved). */
export async function settle(rounds = 20): Promise<void> {
  for (let index = 0; index < rounds; index++) await Promise.resolve();
}

/**
 * A task left unfinished in `store` mid-call: its first turn called `echo`, its second model call
 * was in flight when the runtime shut down keeping its tasks. Resolves with the task's id.
 */
export async function taskStoppedMidCall(store: TaskStore): Promise<string> {
  const { runtime } = fixtureRuntime(
    (request, { signal }) => (turnOf(request) === 1 ? toolReply('echo', { text: 'a' }) : hang(signal)),
    { store },
  );
  const handle = runtime.spawn({ agent: 'explore', prompt: 'x' });
  await settle();
  await runtime.shutdown({ keepTasks: true });
  return handle.id;
}

/**
 * An agent memory over a map of files, `files`, whose MEMORY.md starts as `index`; its one tool,
 * `memory_write`, writes a file of the map. Folders are `/memory/<scope>/<agent>/`.
 */
export function memoryOfFiles(index: string): { files: Map<string, string>; memory: AgentMemory } {
  const files = new Map<string, string>([['MEMORY.md', index]]);
  const memoryWrite = defineTool({
    name: 'memory_write',
    description: 'Write a memory file',
    access: 'write',
    input: v.object({ file_path: v.string(), content: v.string() }),
    execute: ({ file_path, content }) => {
      files.set(file_path, content);
      return 'written';
    },
  });
  const memory: AgentMemory = {
    folder: ({ agent, scope }) => `/memory/${scope}/${agent}/`,
    readIndex: async () => files.get('MEMORY.md'),
    tools: () => [memoryWrite],
  };
  return { files, memory };
}
