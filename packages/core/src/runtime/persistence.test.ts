import { describe, expect, it } from 'vitest';
import { replayTask } from '../replay/replay-task.js';
import { createMemoryStore } from '../store/memory-store.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
import { fixtureRuntime, hang, settle, taskStoppedMidCall, turnOf } from './test-fixtures.js';

describe('persistence, restore and replay (memory store)', () => {
  it('replays a task journal to exactly the recorded result', async () => {
    const { runtime, store } = fixtureRuntime((request) =>
      turnOf(request) < 3 ? toolReply('echo', { text: `t${turnOf(request)}` }) : textReply('all done'),
    );
    const { id, result } = runtime.spawn({ agent: 'explore', prompt: 'x' });
    await result;
    const outcome = await replayTask(store, id);
    expect(outcome.differences).toEqual([]);
    expect(outcome.matches).toBe(true);
    expect(outcome.result).toEqual(await result);
    expect(outcome.steps).toHaveLength(6);
    const partial = await replayTask(store, id, { until: 2 });
    expect(partial.snapshot.value).toEqual({ running: 'acting' });
  });

  it('a replay matches a stored result whose fields come back in another key order', async () => {
    const { runtime, store } = fixtureRuntime([textReply('done', { input: 10, output: 5, cacheRead: 3 })]);
    const { id, result } = runtime.spawn({ agent: 'explore', prompt: 'x' });
    await result;
    // As the file and IndexedDB stores read it back: the same values, keys in another order.
    const reversed = (value: object) => Object.fromEntries(Object.entries(value).reverse());
    const stored = await store.loadResult(id);
    const reordered = {
      ...store,
      loadResult: async () => ({ ...reversed(stored!), usage: reversed(stored!.usage) }),
    };
    const task = await store.getTask(id);
    reordered.getTask = async () => (task ? (({ result: _, ...rest }) => rest)(task) : undefined);
    const outcome = await replayTask(reordered as unknown as typeof store, id);
    expect(outcome.differences).toEqual([]);
    expect(outcome.matches).toBe(true);
  });

  it('restores queued, running and approval-waiting tasks in a new runtime from the same store', async () => {
    const store = createMemoryStore();
    const script = (request: Parameters<typeof turnOf>[0], { signal }: { signal: AbortSignal }) => {
      if (request.messages[0]!.content === 'save')
        return turnOf(request) === 1 ? toolReply('save', { note: 'n' }) : textReply('saved');
      return hang(signal);
    };
    const first = fixtureRuntime(script, { store, limits: { maxConcurrent: 2 }, approval: 'ask' });
    const running = first.runtime.spawn({ agent: 'explore', prompt: 'think' });
    const approving = first.runtime.spawn({ agent: 'writer', prompt: 'save' });
    const queued = first.runtime.spawn({ agent: 'explore', prompt: 'later' });
    await settle();
    expect([running, approving, queued].map((handle) => first.runtime.get(handle.id)?.status)).toEqual([
      'running',
      'awaitingApproval',
      'queued',
    ]);
    await first.runtime.shutdown({ keepTasks: true });
    expect(first.calls).toEqual([]);

    const second = fixtureRuntime(
      (request) =>
        request.messages[0]!.content === 'save'
          ? textReply('saved')
          : textReply(`answer to ${request.messages[0]!.content}`),
      { store, approval: 'ask' },
    );
    const asked: string[] = [];
    second.runtime.on('approval.requested', (request) => {
      asked.push(request.tool);
      second.runtime.approve(request.id);
    });
    const { restored, warnings } = await second.runtime.restore();
    expect(warnings).toEqual([]);
    expect(restored).toEqual([running.id, approving.id, queued.id]);
    const done = await Promise.all(restored.map((id) => waitForEnd(second.runtime, id)));
    expect(done.map((result) => [result.status, result.output])).toEqual([
      ['completed', 'answer to think'],
      ['completed', 'saved'],
      ['completed', 'answer to later'],
    ]);
    expect(asked).toEqual(['save']);
    expect(second.calls.map((call) => call.tool)).toEqual(['save']);
    // A second restore finds nothing left to do.
    expect((await second.runtime.restore()).restored).toEqual([]);
  });

  it('falls back to the journal when a snapshot is corrupt', async () => {
    const store = createMemoryStore();
    const taskId = await taskStoppedMidCall(store);
    const broken = {
      ...store,
      loadSnapshot: async () => Promise.reject(new Error('Unexpected end of JSON input')),
    };
    const second = fixtureRuntime(() => textReply('done after replay'), { store: broken });
    const { warnings } = await second.runtime.restore();
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'PERSISTENCE_CORRUPT', message: expect.stringContaining(taskId) }),
    ]);
    const result = await waitForEnd(second.runtime, taskId);
    expect(result).toMatchObject({
      status: 'completed',
      output: 'done after replay',
      turns: 2,
      toolCalls: 1,
    });
    expect(second.calls).toEqual([]);
  });

  it('never re-runs a write tool that was in flight; the model is told the outcome is unknown', async () => {
    const store = createMemoryStore();
    const first = fixtureRuntime(
      (_request, { call, signal }) => (call === 0 ? toolReply('save', { note: 'once' }) : hang(signal)),
      { store },
    );
    const handle = first.runtime.spawn({ agent: 'writer', prompt: 'x' });
    await settle();
    expect(first.calls.map((call) => call.tool)).toEqual(['save']);
    await first.runtime.shutdown({ keepTasks: true });
    const journal = (await store.loadJournal(handle.id)).entries;
    const started = journal.findIndex((entry) => entry.event.type === 'tool.started');
    expect(started).toBeGreaterThan(0);

    // The store as it was when the process died in the middle of the tool.
    const crashed = createMemoryStore();
    const [task] = (await store.loadTasks()).tasks;
    crashed.appendStatus({
      v: 2,
      taskId: handle.id,
      event: 'task.queued',
      status: 'queued',
      at: 1,
      spec: task!.spec,
    });
    crashed.appendStatus({ v: 2, taskId: handle.id, event: 'task.started', status: 'running', at: 2 });
    for (const entry of journal.slice(0, started + 1)) crashed.appendJournal(handle.id, entry);

    const second = fixtureRuntime(() => textReply('checked the state instead'), { store: crashed });
    await second.runtime.restore();
    const result = await waitForEnd(second.runtime, handle.id);
    expect(result.output).toBe('checked the state instead');
    expect(second.calls).toEqual([]);
    const last = JSON.stringify(second.model.requests[0]!.messages.at(-1));
    expect(last).toContain('interrupted');
    expect(last).toContain('outcome is unknown');
  });
});

async function waitForEnd(runtime: ReturnType<typeof fixtureRuntime>['runtime'], id: string) {
  const info = runtime.get(id);
  if (info?.result) return info.result;
  return new Promise<NonNullable<typeof info>['result'] & object>((resolve) => {
    for (const name of ['task.completed', 'task.failed', 'task.cancelled'] as const)
      runtime.on(name, (event) => {
        if (event.taskId === id) resolve(event.result);
      });
  });
}
