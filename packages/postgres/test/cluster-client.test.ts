import { createRuntime, type TaskClient, type TaskResult, usageReport } from '@troupe/core';
import { scriptedModel, textReply } from '@troupe/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClusterClient,
  type ClusterWorker,
  connectCluster,
  startWorker,
  type WorkerOptions,
} from '../src/index.js';
import { startTestCluster, type TestCluster } from '../src/testing/index.js';

const agents = [{ name: 'echo', description: 'answers', systemPrompt: 'Answer.', tools: [] }];
const MARK = 'STEER-MARK';
const FOLLOW = 'FOLLOW-MARK';

/**
 * A prompt `slow` holds its first call 600 ms (time to steer it); a conversation that carries
 * the steering mark answers `steered`, any other `plain`; a follow-up (its last message carries
 * the follow-up mark) answers with the conversation's first message and how many user messages it has.
 */
const model = scriptedModel(async (request, { signal }) => {
  const text = JSON.stringify(request.messages);
  const last = request.messages.at(-1)!;
  if (typeof last.content === 'string' && last.content.includes(FOLLOW)) {
    const users = request.messages.filter((message) => message.role === 'user').length;
    return textReply(`${users} user messages since ${JSON.stringify(request.messages[0]!.content)}`);
  }
  if (request.messages.length === 1 && text.includes('slow'))
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 600);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  return textReply(text.includes(MARK) ? 'steered' : 'plain');
});

let cluster: TestCluster;
let url: string;
let worker: ClusterWorker;
let workerOptions: WorkerOptions;
let client: ClusterClient;

beforeAll(async () => {
  cluster = await startTestCluster();
  url = await cluster.createDatabase('one_client');
  workerOptions = {
    postgres: url,
    workerId: 'w1',
    model,
    agents,
    limits: { maxConcurrent: 3, maxPerSession: 3 },
    pollingIntervalMs: 20,
  };
  worker = await startWorker(workerOptions);
  client = await connectCluster({ postgres: url, agents, limits: { maxConcurrent: 3 } });
}, 120_000);

afterAll(async () => {
  await client?.close();
  await worker?.stop();
  await cluster?.destroy();
}, 60_000);

/** One program, written against the interface, run on the local runtime and on the cluster. */
async function steerAndRead(tasks: TaskClient, sessionKey: string): Promise<void> {
  const started = new Set<string>();
  const off = tasks.on('task.started', (event) => started.add(event.taskId));
  try {
    // Steered while queued or running: the task hears it either way.
    const early = tasks.spawn({ agent: 'echo', prompt: 'slow early', sessionKey });
    await tasks.steer(early.id, MARK);
    const running = tasks.spawn({ agent: 'echo', prompt: 'slow running', sessionKey });
    const plain = tasks.spawn({ agent: 'echo', prompt: 'fast', sessionKey });
    while (!started.has(running.id)) await new Promise((resolve) => setTimeout(resolve, 10));
    await tasks.steer(running.id, MARK);
    const results = await Promise.all([early.result, running.result, plain.result]);
    expect(results.map((result) => result.output)).toEqual(['steered', 'steered', 'plain']);

    expect(await tasks.result(plain.id)).toEqual(results[2]);
    expect(await tasks.result('t_unknown')).toBeUndefined();
    expect(await tasks.find(running.id)).toMatchObject({
      id: running.id,
      status: 'completed',
      sessionKey,
      turns: 2,
      result: { output: 'steered' },
    });
    expect(await tasks.find('t_unknown')).toBeUndefined();
    const first = await tasks.history({ sessionKey, limit: 2 });
    expect(first.tasks.map((task) => task.id)).toEqual([plain.id, running.id]);
    const second = await tasks.history({ sessionKey, limit: 2, cursor: first.cursor! });
    expect(second).toEqual({ tasks: [expect.objectContaining({ id: early.id, status: 'completed' })] });
    // The usage ledger reads the same stored results, wherever the tasks ran.
    const usage = await usageReport(tasks, { sessionKey });
    expect(usage.total.tasks).toBe(3);
    expect(usage.total.input).toBe(results.reduce((sum, result) => sum + result.usage.input, 0));
    expect(usage.total.output).toBe(results.reduce((sum, result) => sum + result.usage.output, 0));
    expect(usage.byAgent.echo?.tasks).toBe(3);

    const steerEnded = Promise.resolve().then(() => tasks.steer(plain.id, 'more'));
    await expect(steerEnded).rejects.toMatchObject({ code: 'TASK_ENDED' });
    const steerUnknown = Promise.resolve().then(() => tasks.steer('t_unknown', 'more'));
    await expect(steerUnknown).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
    expect(await tasks.cancel(plain.id)).toBe(false);
  } finally {
    off();
  }
}

describe('one client interface: the local runtime and a cluster client', () => {
  it('the same program steers, finds, pages and awaits tasks on either', async () => {
    const runtime = createRuntime({ model, agents });
    try {
      await steerAndRead(runtime, 'local');
    } finally {
      await runtime.shutdown();
    }
    await steerAndRead(client, 'remote');
  }, 60_000);

  it('awaits the result of a task another client spawned, and of one that ended before it asked', async () => {
    const other = await connectCluster({ postgres: url, agents });
    try {
      const handle = other.spawn({ agent: 'echo', prompt: 'slow', sessionKey: 'others' });
      await handle.result;
      const before = await client.result(handle.id);
      expect(before).toMatchObject({ taskId: handle.id, status: 'completed', output: 'plain' });
      const later = other.spawn({ agent: 'echo', prompt: 'slow', sessionKey: 'others' });
      // Asked for as soon as it is queued: resolves when the worker ends it.
      let result: TaskResult | undefined;
      while (!result) {
        result = await client.result(later.id);
        if (!result) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(result).toMatchObject({ taskId: later.id, status: 'completed' });
    } finally {
      await other.close();
    }
  }, 60_000);
});

/** One program against the interface: a finished task's conversation continued by id, then by agent name. */
async function continueConversation(tasks: TaskClient, taskId: string, sessionKey: string): Promise<void> {
  const next = await tasks.followUp(taskId, `${FOLLOW} and then?`);
  expect((await next.result).output).toBe('2 user messages since "first question"');
  // The follow-up is now the head of that conversation: the agent's name finds it, not the original.
  const third = await tasks.followUp('echo', `${FOLLOW} and after that?`, { sessionKey });
  expect((await third.result).output).toBe('3 user messages since "first question"');
  await expect(tasks.followUp('t_unknown', 'more')).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
}

describe('follow-up through the one client interface', () => {
  it('continues a finished task from its stored conversation after the worker restarts, from a new client', async () => {
    const runtime = createRuntime({ model, agents });
    try {
      const local = await runtime.spawn({ agent: 'echo', prompt: 'first question', sessionKey: 'follow' })
        .result;
      await continueConversation(runtime, local.taskId, 'follow');
    } finally {
      await runtime.shutdown();
    }
    const first = await client.spawn({ agent: 'echo', prompt: 'first question', sessionKey: 'follow' })
      .result;
    // A restart: the worker that ran it goes, another starts; the client that spawned it is not asked.
    await worker.stop();
    worker = await startWorker({ ...workerOptions, workerId: 'w2' });
    const fresh = await connectCluster({ postgres: url, agents });
    try {
      await continueConversation(fresh, first.taskId, 'follow');
      const { tasks } = await fresh.store.listTasks({ sessionKey: 'follow' });
      const specs = await Promise.all(
        tasks.map(async (task) => (await fresh.store.getTask(task.taskId))!.spec),
      );
      expect(specs.map((spec) => spec.followUpOf)).toEqual([specs[1]!.taskId, first.taskId, undefined]);
    } finally {
      await fresh.close();
    }
  }, 60_000);
});

describe('a worker runs tasks through its supervisor', () => {
  it('bounds its runtime by the cluster and starts a queued task as a spawn (task.started), not a restore', async () => {
    expect(worker.runtime.limits.maxConcurrent).toBe(3);
    const handles = Array.from({ length: 6 }, (_, index) =>
      client.spawn({ agent: 'echo', prompt: `task ${index}`, sessionKey: 'supervised' }),
    );
    const results = await Promise.all(handles.map((handle) => handle.result));
    expect(results.every((result) => result.status === 'completed')).toBe(true);
    const { rows } = await client.store.pool.query<{ event: string; n: number }>(
      `SELECT record->>'event' AS event, count(*)::int AS n FROM troupe.status_log
       WHERE task_id = ANY($1) GROUP BY 1 ORDER BY 1`,
      [handles.map((handle) => handle.id)],
    );
    expect(rows).toEqual([
      { event: 'task.completed', n: 6 },
      { event: 'task.queued', n: 6 },
      { event: 'task.started', n: 6 },
    ]);
  }, 60_000);
});
