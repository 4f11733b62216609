import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/memory-store.js';
import { textReply } from '../testing/scripted-model.js';
import { fixtureRuntime } from './test-fixtures.js';

const context = (sessionKey: string) =>
  ({ signal: new AbortController().signal, taskId: 'main', agent: 'main', sessionKey }) as never;

describe('history across restarts', () => {
  it('get, find, history, result, task_status and task_list know tasks that ended before a restart', async () => {
    const store = createMemoryStore();
    const before = fixtureRuntime(
      (request) => textReply(`answer to ${JSON.stringify(request.messages[0]!.content)}`),
      {
        store,
      },
    );
    const first = before.runtime.spawn({ agent: 'explore', prompt: 'first question', sessionKey: 's1' });
    const second = before.runtime.spawn({ agent: 'writer', prompt: 'second question', sessionKey: 's1' });
    const other = before.runtime.spawn({ agent: 'explore', prompt: 'elsewhere', sessionKey: 's2' });
    await Promise.all([first.result, second.result, other.result]);
    await before.runtime.shutdown();

    const after = fixtureRuntime(() => textReply('new'), { store });
    const { runtime } = after;
    expect(runtime.get(first.id)).toBeUndefined();
    expect(await runtime.find(first.id)).toMatchObject({
      id: first.id,
      status: 'completed',
      agent: 'explore',
      turns: 1,
    });
    expect(await runtime.find('t_unknown')).toBeUndefined();
    expect((await runtime.result(first.id))?.output).toBe('answer to "first question"');

    const fresh = runtime.spawn({ agent: 'explore', prompt: 'third question', sessionKey: 's1' });
    await fresh.result;
    const page = await runtime.history({ sessionKey: 's1' });
    expect(page.tasks.map((info) => info.id)).toEqual([fresh.id, second.id, first.id]);
    expect(
      (await runtime.history({ sessionKey: 's1', agent: 'writer' })).tasks.map((info) => info.id),
    ).toEqual([second.id]);
    const paged = await runtime.history({ limit: 2 });
    expect(paged.tasks).toHaveLength(2);
    expect(paged.cursor).toBeDefined();
    const rest = await runtime.history({ limit: 2, cursor: paged.cursor! });
    expect([...paged.tasks, ...rest.tasks].map((info) => info.id).sort()).toEqual(
      [first.id, second.id, other.id, fresh.id].sort(),
    );

    const tools = runtime.mainTools();
    const taskList = tools.find((tool) => tool.name === 'task_list')!;
    const listed = String(await taskList.execute({}, context('s1')));
    expect(listed).toContain(first.id);
    expect(listed).toContain(second.id);
    expect(listed).toContain(fresh.id);
    expect(listed).not.toContain(other.id);
    const taskStatus = tools.find((tool) => tool.name === 'task_status')!;
    expect(String(await taskStatus.execute({ task_id: first.id }, context('s1')))).toContain(
      'answer to "first question"',
    );
    await runtime.shutdown();
  });

  it("task_list and history({ minDepth: 1 }) find a session's tasks behind many main-agent runs", async () => {
    const store = createMemoryStore();
    const { runtime } = fixtureRuntime(() => textReply('done'), { store });
    const task = runtime.spawn({ agent: 'explore', prompt: 'look around', sessionKey: 's1' });
    await task.result;
    // A long chat after it: each message is a main-agent run, stored as a task of depth 0.
    const session = runtime.createSession({ sessionKey: 's1' });
    for (let message = 0; message < 25; message += 1) await session.send(`message ${message}`);

    const page = await runtime.history({ sessionKey: 's1', minDepth: 1, limit: 20 });
    expect(page.tasks.map((info) => info.id)).toEqual([task.id]);
    expect(page.cursor).toBeUndefined();
    // Main-agent runs are still in the whole history.
    expect((await runtime.history({ sessionKey: 's1', limit: 100 })).tasks).toHaveLength(26);
    const taskList = runtime.mainTools().find((tool) => tool.name === 'task_list')!;
    expect(String(await taskList.execute({}, context('s1')))).toContain(task.id);
    await runtime.shutdown();
  });
});
