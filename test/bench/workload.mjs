// The DESIGN.md "Performance" workload, in plain JavaScript over the built packages, so the
// measured process carries no TypeScript loader.
import { createMemoryStore, createRuntime, defineTool } from '@troupe/core';
import * as v from 'valibot';

/** Model turns per task: the first ones call one read tool, the last one answers. */
export const TURNS_PER_TASK = Number(process.env.BENCH_TURNS ?? 5);

let toolUseCounter = 0;
const usage = { input: 100, output: 20 };

/** A zero-latency model: a tool call per turn until the last turn, then an answer. */
export function respond(request) {
  const turn = (request.messages.length + 1) / 2;
  if (turn < TURNS_PER_TASK) {
    const id = `toolu_${++toolUseCounter}`;
    return {
      content: [{ type: 'tool_use', id, name: 'lookup', input: { key: `k${turn}` } }],
      stopReason: 'tool_use',
      usage,
      model: request.model,
    };
  }
  return { content: [{ type: 'text', text: 'done' }], stopReason: 'end_turn', usage, model: request.model };
}

export const zeroLatencyModel = { name: 'bench', generate: async (request) => respond(request) };

export const lookupTool = defineTool({
  name: 'lookup',
  description: 'Looks a key up.',
  access: 'read',
  input: v.object({ key: v.string() }),
  execute: ({ key }) => `value of ${key}`,
});

/** Runs `tasks` tasks through troupe, 5 at a time; resolves with the elapsed ms. */
export async function runTroupe(tasks, options = {}) {
  const runtime = createRuntime({
    model: zeroLatencyModel,
    tools: [lookupTool],
    agents: [{ name: 'worker', description: 'Does work.', systemPrompt: 'You work.', tools: ['lookup'] }],
    limits: { maxConcurrent: 5, maxTurns: TURNS_PER_TASK + 1 },
    store: options.store ?? createMemoryStore(),
  });
  let events = 0;
  if (options.events !== false) {
    for (const name of [
      'task.queued',
      'task.started',
      'task.progress',
      'tool.started',
      'tool.finished',
      'task.completed',
    ])
      runtime.on(name, () => {
        events++;
      });
  }
  const started = performance.now();
  const handles = [];
  for (let index = 0; index < tasks; index++)
    handles.push(runtime.spawn({ agent: 'worker', prompt: `task ${index}` }).result);
  const results = await Promise.all(handles);
  const elapsed = performance.now() - started;
  if (results.some((result) => result.status !== 'completed' || result.turns !== TURNS_PER_TASK))
    throw new Error('bench: a task did not complete as scripted');
  if (options.events !== false && events === 0) throw new Error('bench: no events were delivered');
  await runtime.shutdown();
  return elapsed;
}

const lookupSpec = {
  name: lookupTool.name,
  description: lookupTool.description,
  input_schema: lookupTool.inputJsonSchema,
};

/** The same workload as a bare async loop: 5 workers pulling from a shared queue. */
export async function runBareLoop(tasks) {
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < tasks) {
      next++;
      // The least a real loop does: a cancel signal per task, a request per call.
      const { signal } = new AbortController();
      const messages = [{ role: 'user', content: 'task' }];
      for (;;) {
        const request = { model: 'm', system: 's', messages, tools: [lookupSpec], maxTokens: 1024 };
        const response = await zeroLatencyModel.generate(request, signal);
        messages.push({ role: 'assistant', content: response.content });
        const use = response.content.find((block) => block.type === 'tool_use');
        if (use?.type !== 'tool_use') break;
        const output = await lookupTool.execute(use.input, {
          signal,
          taskId: 't',
          agent: 'a',
          toolUseId: use.id,
        });
        messages.push({
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: use.id, content: output }],
        });
      }
    }
  };
  await Promise.all(Array.from({ length: 5 }, worker));
  return performance.now() - started;
}
