import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../model/types.js';
import type { TaskStore } from '../persistence/types.js';
import { replayTask } from '../replay/replay-task.js';
import { createMemoryStore } from '../store/memory-store.js';
import { manualClock } from '../testing/manual-clock.js';
import { scriptedModel, textReply } from '../testing/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';
import { echoTool } from './test-fixtures.js';

const assistantTurns = (request: ModelRequest) =>
  request.messages.filter((message) => message.role === 'assistant').length;

/**
 * A runtime whose scripted model records every request: two turns that call a tool (`echo`, or the
 * write tool `save`), then an answer. `saved` counts the write tool's real runs.
 */
function setup(store: TaskStore = createMemoryStore()) {
  const clock = manualClock();
  const saved: string[] = [];
  const model = scriptedModel((request) => {
    const turn = assistantTurns(request);
    if (turn >= 2) return textReply(`done after ${turn} turns`);
    const name = request.tools.some((tool) => tool.name === 'save') ? 'save' : 'echo';
    return {
      content: [
        { type: 'text', text: `Turn ${turn + 1}: calling ${name}.` },
        {
          type: 'tool_use',
          id: `toolu_${turn}`,
          name,
          input: name === 'save' ? { note: `n${turn}` } : { text: `t${turn}` },
        },
      ],
      usage: { input: 100, output: 10 },
    };
  });
  const runtime = createRuntime({
    model,
    clock,
    store,
    approval: 'auto',
    tools: [
      echoTool,
      defineTool({
        name: 'save',
        description: 'Save a note',
        access: 'write',
        input: v.object({ note: v.string() }),
        execute: ({ note }) => {
          saved.push(note);
          return `saved ${note}`;
        },
      }),
    ],
    agents: [
      { name: 'explore', description: 'Reads.', systemPrompt: 'You explore.', tools: ['echo'] },
      { name: 'writer', description: 'Writes.', systemPrompt: 'You write.', tools: ['save'] },
    ],
  });
  return { runtime, model, clock, store, saved };
}

/** Everything the store holds of a task, as JSON, to show it did not change. */
async function documentsOf(store: TaskStore, taskId: string) {
  await store.flush();
  return JSON.stringify({
    task: await store.getTask(taskId),
    journal: await store.loadJournal(taskId),
    snapshot: await store.loadSnapshot(taskId),
    result: await store.loadResult(taskId),
  });
}

describe('runtime.fork: a new task from a step of a stored task', () => {
  it("starts live from the step: its first model request is the original's request at that step", async () => {
    const memory = createMemoryStore();
    const { runtime, model, clock, store } = setup(memory);
    const original = runtime.spawn({ agent: 'explore', prompt: 'Look around.' });
    await original.result;
    const { entries } = await store.loadJournal(original.id);
    // Step 3 is the state after task.started, model.responded and tool.finished: the second model call.
    expect(entries.slice(0, 3).map((entry) => entry.event.type)).toEqual([
      'task.started',
      'model.responded',
      'tool.finished',
    ]);
    const before = await documentsOf(store, original.id);
    expect(model.requests).toHaveLength(3);
    clock.advance(3_600_000); // An hour later: the fork still has the time the original had left.
    const fork = await runtime.fork(original.id, { atStep: 3 });
    const result = await fork.result;
    expect(fork.id).not.toBe(original.id);
    // The same request, but for the new task.
    expect(model.requests[3]).toEqual({ ...model.requests[1], taskId: fork.id });
    expect(result).toMatchObject({
      status: 'completed',
      terminateReason: 'GOAL',
      output: 'done after 2 turns',
    });
    // The fork's journal: the original's first three entries (times moved), linked, then its own.
    const forked = await store.loadJournal(fork.id);
    expect(forked.entries[0]!.forkedFrom).toEqual({
      taskId: original.id,
      step: 3,
      shiftMs: expect.any(Number),
    });
    expect(forked.entries[0]!.forkedFrom!.shiftMs).toBeGreaterThanOrEqual(3_600_000);
    expect(forked.entries.map((entry) => entry.event.type)).toEqual(entries.map((entry) => entry.event.type));
    expect((await store.getTask(fork.id))!.spec.forkedFrom).toMatchObject({ taskId: original.id, step: 3 });
    // Its status log reads as a new task's: queued, started (not resumed: it was never stopped), ended.
    expect(
      memory.records.filter((record) => record.taskId === fork.id).map((record) => record.event),
    ).toEqual(['task.queued', 'task.started', 'task.completed']);
    // The original is untouched, and both replay exactly.
    expect(await documentsOf(store, original.id)).toBe(before);
    expect((await replayTask(store, original.id)).matches).toBe(true);
    expect((await replayTask(store, fork.id)).matches).toBe(true);
    await runtime.shutdown();
  });

  it('with the agent edited and the step’s assistant message edited, the request differs by exactly those edits', async () => {
    const { runtime, model, store } = setup();
    const original = runtime.spawn({ agent: 'explore', prompt: 'Look around.' });
    await original.result;
    const fork = await runtime.fork(original.id, {
      atStep: 3,
      agent: { systemPrompt: 'You explore, briefly.', model: 'claude-edited' },
      editMessage: { text: 'I will call echo once.' },
    });
    await fork.result;
    const expected = structuredClone(model.requests[1]!);
    expected.taskId = fork.id;
    expected.system = 'You explore, briefly.';
    expected.model = 'claude-edited';
    const assistant = expected.messages[1]!.content as { type: string; text?: string }[];
    assistant[0] = { type: 'text', text: 'I will call echo once.' };
    expect(model.requests[3]).toEqual(expected);
    const { entries } = await store.loadJournal(fork.id);
    expect(entries[0]!.forkedFrom).toMatchObject({ step: 3, editedEntry: 1 });
    expect((await replayTask(store, fork.id)).matches).toBe(true);
    await runtime.shutdown();
  });

  it('a fork with tools edited offers the model only those', async () => {
    const { runtime, model } = setup();
    const original = runtime.spawn({ agent: 'explore', prompt: 'Look around.' });
    await original.result;
    const fork = await runtime.fork(original.id, { atStep: 3, agent: { tools: ['echo', 'save'] } });
    await fork.result;
    expect(model.requests[3]!.tools.map((tool) => tool.name)).toEqual(['echo', 'save']);
    await runtime.shutdown();
  });

  it('a fork from a step where a write tool had started answers it "interrupted" and never runs it again', async () => {
    const { runtime, model, store, saved } = setup();
    const original = runtime.spawn({ agent: 'writer', prompt: 'Write notes.' });
    await original.result;
    expect(saved).toEqual(['n0', 'n1']);
    const { entries } = await store.loadJournal(original.id);
    const started = entries.findIndex((entry) => entry.event.type === 'tool.started');
    const fork = await runtime.fork(original.id, { atStep: started + 1 });
    await fork.result;
    expect(saved).toEqual(['n0', 'n1', 'n1']); // The fork's own second turn saves again; the first write is not re-run.
    const results = model.requests[3]!.messages[2]!.content as {
      type: string;
      content?: unknown;
      is_error?: boolean;
    }[];
    expect(results[0]).toMatchObject({ type: 'tool_result', is_error: true });
    expect(JSON.stringify(results[0]!.content)).toContain('interrupted');
    await runtime.shutdown();
  });

  it('refuses a step out of range, a step the task had ended by, an unknown task, and an edit with no message', async () => {
    const { runtime, store } = setup();
    const original = runtime.spawn({ agent: 'explore', prompt: 'Look around.' });
    await original.result;
    const { entries } = await store.loadJournal(original.id);
    await expect(runtime.fork(original.id, { atStep: 0 })).rejects.toThrow(
      `atStep must be a whole number from 1 to ${entries.length}`,
    );
    await expect(runtime.fork(original.id, { atStep: entries.length + 1 })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(runtime.fork(original.id, { atStep: entries.length })).rejects.toThrow(/had ended by step/);
    await expect(runtime.fork('t_nope', { atStep: 1 })).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
    await expect(runtime.fork(original.id, { atStep: 1, editMessage: { text: 'x' } })).rejects.toThrow(
      /no assistant message at or before step 1/,
    );
    expect(runtime.list().map((task) => task.id)).toEqual([original.id]);
    await runtime.shutdown();
  });
});
