import { describe, expect, it } from 'vitest';
import type { TaskSnapshotDocument } from '../persistence/types.js';
import { replayTask } from '../replay/replay-task.js';
import { createMemoryStore } from '../store/memory-store.js';
import { textReply } from '../testing/scripted-model.js';
import { fixtureRuntime, hang, settle, taskStoppedMidCall } from './test-fixtures.js';

/** A memory store whose snapshot documents are replaced by `rewrite` of them when read. */
function rewritingSnapshots(
  store: ReturnType<typeof createMemoryStore>,
  rewrite: (document: TaskSnapshotDocument) => TaskSnapshotDocument,
) {
  return {
    ...store,
    loadSnapshot: async (taskId: string) => {
      const document = await store.loadSnapshot(taskId);
      return document && rewrite(document);
    },
  };
}

describe('effects are the actors a state invokes', () => {
  it('a task stopped mid-call replays to its stored snapshot, effects included, before and after a restore', async () => {
    const store = createMemoryStore();
    const taskId = await taskStoppedMidCall(store);
    const stored = await store.loadSnapshot(taskId);
    expect(stored!.snapshot).toMatchObject({
      value: { running: 'thinking' },
      children: { model: { src: 'model' }, deadline: { src: 'deadline' } },
    });
    expect((await replayTask(store, taskId)).differences).toEqual([]);

    const second = fixtureRuntime((_request, { signal }) => hang(signal), { store });
    await second.runtime.restore();
    await settle();
    // The restored actor issued the model call again, and its documents still replay exactly.
    expect(second.model.requests).toHaveLength(1);
    await second.runtime.shutdown({ keepTasks: true });
    expect((await replayTask(store, taskId)).differences).toEqual([]);
  });

  it('resumes the effect of a snapshot document that records no effects (written before they were actors)', async () => {
    const store = createMemoryStore();
    const first = fixtureRuntime((_request, { signal }) => hang(signal), { store });
    const handle = first.runtime.spawn({ agent: 'explore', prompt: 'x' });
    await settle();
    await first.runtime.shutdown({ keepTasks: true });
    const old = rewritingSnapshots(store, (document) => ({
      ...document,
      snapshot: { ...(document.snapshot as object), children: {} },
    }));
    const second = fixtureRuntime(() => textReply('answered after the restore'), { store: old });
    await second.runtime.restore();
    expect(await second.runtime.result(handle.id)).toMatchObject({
      status: 'completed',
      output: 'answered after the restore',
    });
    expect(second.model.requests).toHaveLength(1);
  });

  it('never starts an effect a stored document names but its state does not invoke', async () => {
    const store = createMemoryStore();
    const first = fixtureRuntime((_request, { signal }) => hang(signal), { store });
    const handle = first.runtime.spawn({ agent: 'writer', prompt: 'x' });
    await settle();
    await first.runtime.shutdown({ keepTasks: true });
    // A document claiming a tool call and an approval in flight while the state is `thinking`.
    const forged = rewritingSnapshots(store, (document) => {
      const snapshot = document.snapshot as { children: Record<string, unknown> };
      const child = { snapshot: { status: 'active' }, src: 'tool' };
      return {
        ...document,
        snapshot: {
          ...snapshot,
          children: { ...snapshot.children, tool: child, approval: { ...child, src: 'approval' } },
        },
      };
    });
    const second = fixtureRuntime(() => textReply('only the model was asked'), { store: forged });
    const asked: string[] = [];
    second.runtime.on('approval.requested', (request) => asked.push(request.tool));
    await second.runtime.restore();
    expect(await second.runtime.result(handle.id)).toMatchObject({ output: 'only the model was asked' });
    expect(second.calls).toEqual([]);
    expect(asked).toEqual([]);
  });

  it('a cancel stops the model call in flight through its signal', async () => {
    let aborted = false;
    const { runtime } = fixtureRuntime((_request, { signal }) => {
      signal.addEventListener('abort', () => {
        aborted = true;
      });
      return hang(signal);
    });
    const handle = runtime.spawn({ agent: 'explore', prompt: 'x' });
    await settle();
    expect(aborted).toBe(false);
    runtime.cancel(handle.id);
    expect(await handle.result).toMatchObject({ status: 'cancelled' });
    expect(aborted).toBe(true);
  });
});
