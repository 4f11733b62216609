import { createMemoryStore, createRuntime } from '@troupe/core';
import { manualClock, scriptedModel, textReply } from '@troupe/core/testing';
import { describe, expect, it } from 'vitest';
import { estimateCost } from '../src/timeline/model-cost.js';
import { buildTimelineModel } from '../src/timeline/player.js';
import { createRecorder } from '../src/timeline/recorder.js';
import { runLanes, runStart, runTree } from '../src/timeline/run-tree.js';
import { stepTrace } from '../src/timeline/trace.js';
import { guardedEffects, scenarios } from './fixtures.js';

/** Two tasks with room for one at a time: the second waits in the queue until the first ends. */
async function queuedRun() {
  const clock = manualClock();
  const recorder = createRecorder({ now: clock.now });
  const effects = guardedEffects();
  const runtime = createRuntime({
    model: scriptedModel(() => {
      clock.advance(100);
      return textReply('done', { input: 1000, output: 100 });
    }),
    tools: effects.tools,
    agents: [{ name: 'explore', description: 'Reads.', systemPrompt: 'You explore.', tools: ['echo'] }],
    limits: { maxConcurrent: 1 },
    clock,
    store: createMemoryStore(),
    approval: 'auto',
    inspect: recorder.inspect,
  });
  const first = runtime.spawn({ agent: 'explore', prompt: 'one', sessionKey: 's1' });
  const second = runtime.spawn({ agent: 'explore', prompt: 'two', sessionKey: 's1' });
  await Promise.all([first.result, second.result]);
  await runtime.shutdown();
  return { model: buildTimelineModel(recorder.timeline()), ids: [first.id, second.id] };
}

describe('runTree and runLanes', () => {
  it('lists a task waiting in the queue with its place, then as a task once it starts', async () => {
    const { model, ids } = await queuedRun();
    const submitted = model.frames.findIndex(
      (frame) =>
        frame.event?.type === 'task.submitted' && (frame.event.task as { taskId: string }).taskId === ids[1],
    );
    expect(submitted).toBeGreaterThan(0);
    const atSubmit = runTree(model, submitted);
    const supervisor = atSubmit.find((node) => node.kind === 'supervisor')!;
    const queued = [...atSubmit, ...supervisor.children].filter((node) => node.status === 'queued');
    expect(queued).toEqual([expect.objectContaining({ name: ids[1], queuePosition: 1, agent: 'explore' })]);

    const last = runTree(model, model.frames.length - 1);
    const tasks = [...last, ...last.flatMap((node) => node.children)].filter((node) => node.kind === 'task');
    expect(tasks.map((task) => [task.name, task.status])).toEqual([
      [ids[0], 'completed'],
      [ids[1], 'completed'],
    ]);
    expect(tasks[0]!.tokens).toEqual({ input: 1000, output: 100 });
    expect(tasks[0]!.durationMs).toBe(100);
  });

  it('shows tasks, not the effects they invoke (model calls, deadline): the trace view shows those', async () => {
    const { model } = await queuedRun();
    const effects = model.frames.some((frame) =>
      [...frame.actors.values()].some((actor) => ['model', 'deadline'].includes(actor.name)),
    );
    expect(effects).toBe(true);
    const all = (nodes: ReturnType<typeof runTree>): ReturnType<typeof runTree> =>
      nodes.flatMap((node) => [node, ...all(node.children)]);
    for (let index = 0; index < model.frames.length; index++)
      expect(all(runTree(model, index)).filter((node) => node.kind === 'actor')).toEqual([]);
  });

  it('places a nested task under the task that started it, not beside it under the session', async () => {
    const recorder = createRecorder();
    const runtime = createRuntime({
      model: scriptedModel((request, { signal }) =>
        request.messages[0]?.content === 'lead'
          ? new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)))
          : textReply('child done'),
      ),
      agents: [{ name: 'lead', description: 'Leads.', systemPrompt: 'You lead.' }],
      limits: { maxDepth: 2 },
      inspect: recorder.inspect,
    });
    const lead = runtime.spawn({ agent: 'lead', prompt: 'lead', sessionKey: 's1' });
    const child = runtime.spawn({ agent: 'lead', prompt: 'child', parentTaskId: lead.id });
    await child.result;
    const model = buildTimelineModel(recorder.timeline());
    const [supervisor] = runTree(model, model.frames.length - 1);
    const names = (nodes: { name: string; children: unknown[] }[] | undefined) =>
      nodes?.map((node) => node.name);
    expect(names(supervisor?.children)).toEqual([lead.id]);
    expect(names(supervisor?.children[0]?.children)).toEqual([child.id]);
    await runtime.shutdown();
  });

  it('lanes: the second task queued while the first ran, never two at once', async () => {
    const { model, ids } = await queuedRun();
    const lanes = runLanes(model);
    expect(lanes.map((lane) => lane.name)).toEqual(ids);
    const [one, two] = lanes as [(typeof lanes)[0], (typeof lanes)[0]];
    expect(two.queuedAt).toBeLessThanOrEqual(two.startedAt);
    expect(one.endedAt).toBeLessThanOrEqual(two.startedAt);
    expect(lanes.every((lane) => lane.status === 'completed')).toBe(true);
  });

  it("runStart: a replay's first records, stamped 0, do not start the run in 1970", async () => {
    const { model } = await queuedRun();
    expect(runStart(model)).toBe(model.frames[0]!.at);
    const replayed = {
      ...model,
      frames: model.frames.map((frame, index) => (index < 2 ? { ...frame, at: 0 } : frame)),
    };
    expect(runStart(replayed)).toBe(model.frames[2]!.at);
  });
});

describe('stepTrace', () => {
  it("gives a live task's system prompt, recorded from the supervisor's task.submitted, redacted", async () => {
    const secret = 'sk-live-secret-0123456789abcdef';
    const recorder = createRecorder({ secrets: [secret] });
    const runtime = createRuntime({
      model: scriptedModel([textReply('ok')]),
      agents: [{ name: 'explore', description: 'Reads.', systemPrompt: `You explore. Token ${secret}.` }],
      inspect: recorder.inspect,
    });
    const { id } = runtime.spawn({ agent: 'explore', prompt: 'go' });
    await runtime.result(id);
    await runtime.shutdown();
    const model = buildTimelineModel(recorder.timeline());
    const frame = model.frames.at(-1)!;
    const actor = [...frame.actors.values()].find((candidate) => candidate.name === id)!;
    const system = stepTrace(model, frame, actor)?.system;
    expect(system).toMatch(/^You explore\. Token /);
    expect(system).not.toContain(secret);
  });

  it("shows the conversation at each step, the call's tokens and cost, and a tool call's duration", async () => {
    const run = await scenarios.goal!();
    const model = buildTimelineModel(run.timeline);
    const task = model.frames.find(
      (frame) => frame.kind === 'actor' && frame.actors.get(frame.sessionId)!.name.startsWith('t_'),
    )!;
    for (const frame of model.frames.slice(task.index)) {
      const actor = frame.actors.get(task.sessionId)!;
      const trace = stepTrace(model, frame, actor)!;
      const messages = actor.context.messages as unknown[];
      expect(trace.messages).toHaveLength(messages.length);
      if (frame.sessionId === task.sessionId && frame.event?.type === 'model.responded') {
        expect(trace.stepTokens).toEqual({ input: 10, output: 5 });
        expect(trace.stepCost).toBe(estimateCost(trace.model, { input: 10, output: 5 }));
      }
    }
    const end = model.frames.at(-1)!;
    const trace = stepTrace(model, end, end.actors.get(task.sessionId)!)!;
    const blocks = trace.messages.flatMap((message) => message.blocks);
    expect(blocks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'tool_use', name: 'echo', input: { text: 'a' } }),
        expect.objectContaining({ kind: 'tool_result', isError: false }),
        { kind: 'text', text: 'found it' },
      ]),
    );
    const finished = model.frames.find(
      (frame) => frame.sessionId === task.sessionId && frame.event?.type === 'tool.finished',
    )!;
    expect(stepTrace(model, finished, finished.actors.get(task.sessionId)!)!.toolMs).toBeGreaterThanOrEqual(
      0,
    );
    // The supervisor has no conversation.
    const supervisor = [...end.actors.values()].find((actor) => actor.name === 'supervisor')!;
    expect(stepTrace(model, end, supervisor)).toBeUndefined();
  });

  it('estimates cost at list prices by model family, and not for an unknown model', () => {
    expect(estimateCost('claude-sonnet-4-5', { input: 1_000_000, output: 0 })).toBe(3);
    expect(
      estimateCost('claude-haiku-4-5', { input: 0, output: 1_000_000, cacheRead: 1_000_000 }),
    ).toBeCloseTo(5.1);
    expect(estimateCost('gpt-5', { input: 10, output: 10 })).toBeUndefined();
    expect(estimateCost(undefined, { input: 10, output: 10 })).toBeUndefined();
  });
});

describe('the trace view’s cost estimate', () => {
  it('uses @troupe/core’s price table: cache reads and writes are part of input, priced at their own rates', () => {
    // 1,000 input tokens of which 600 read and 300 written (100 uncached), 100 output, on Sonnet.
    const cost = estimateCost('claude-sonnet-4-5', {
      input: 1000,
      output: 100,
      cacheRead: 600,
      cacheWrite: 300,
    });
    expect(cost).toBeCloseTo((100 * 3 + 100 * 15 + 600 * 0.3 + 300 * 3.75) / 1_000_000, 12);
    expect(estimateCost('gpt-x', { input: 1, output: 1 })).toBeUndefined();
    expect(estimateCost('gpt-x', { input: 1_000_000, output: 0 }, { gpt: { input: 2, output: 8 } })).toBe(2);
  });
});
