import { spawnSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentDefinition, createRuntime, PersistenceError, type RuntimeWarning } from '@troupe/core';
import { scriptedModel, textReply } from '@troupe/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { finished, queued, started } from '../../test/helpers/store-records.js';
import { createFileStore } from './file-store.js';

const agent: AgentDefinition = {
  name: 'explore',
  description: 'Explores',
  systemPrompt: 'You explore.',
  tools: [],
};

let root: string;
let dir: string;
const fifos: string[] = [];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'troupe-hostile-'));
  dir = join(root, 'tasks');
});
afterEach(async () => {
  // A reader still blocked on a FIFO (before the fix) gets its end of file and lets go.
  for (const fifo of fifos.splice(0)) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // No reader waits.
    }
  }
  await rm(root, { recursive: true, force: true });
});

/** Two tasks left running in the file store (their model calls in flight), as a crash leaves them. */
async function unfinishedTasks(): Promise<[string, string]> {
  let calls = 0;
  let bothCalled!: () => void;
  const called = new Promise<void>((resolve) => {
    bothCalled = resolve;
  });
  const runtime = createRuntime({
    model: scriptedModel((_request, { signal }) => {
      if (++calls === 2) bothCalled();
      return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    }),
    agents: [agent],
    store: createFileStore({ dir }),
  });
  const ids = [
    runtime.spawn({ agent: 'explore', prompt: 'one' }).id,
    runtime.spawn({ agent: 'explore', prompt: 'two' }).id,
  ] as [string, string];
  await called;
  await runtime.shutdown({ keepTasks: true });
  return ids;
}

function restorer() {
  const store = createFileStore({ dir });
  const runtime = createRuntime({
    model: scriptedModel((request) => textReply(`answer to ${request.messages[0]!.content}`)),
    agents: [agent],
    store,
  });
  const warned: RuntimeWarning[] = [];
  runtime.on('runtime.warning', (warning) => warned.push(warning));
  return { runtime, store, warned };
}

function mkfifo(path: string): void {
  const made = spawnSync('mkfifo', [path]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
  fifos.push(path);
}

async function withNullContext(taskId: string): Promise<string> {
  const path = join(dir, `${taskId}.snapshot.json`);
  const document = JSON.parse(await readFile(path, 'utf8'));
  document.snapshot.context = null;
  await writeFile(path, JSON.stringify(document));
  return path;
}

describe('restore of a file store holding a record it cannot read', () => {
  it('a snapshot with a null context and no journal to stand in: that task fails naming it and the file (persisted), the other resumes', async () => {
    const [bad, good] = await unfinishedTasks();
    const snapshotPath = await withNullContext(bad);
    await unlink(join(dir, `${bad}.journal.jsonl`));
    const { runtime, warned } = restorer();
    const { restored } = await runtime.restore();
    expect(restored).toEqual([bad, good]);
    const failed = await runtime.result(bad);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'PERSISTENCE_CORRUPT' } });
    expect(failed?.error?.message).toContain(`Task ${bad} cannot be restored`);
    expect(failed?.error?.message).toContain(snapshotPath);
    expect(failed?.error?.message).toContain('context');
    expect(await runtime.result(good)).toMatchObject({ status: 'completed', output: 'answer to two' });
    expect(warned).toEqual([expect.objectContaining({ code: 'PERSISTENCE_CORRUPT', taskId: bad })]);
    await runtime.shutdown();
    // On disk: the failure is the task's result, and a later restore leaves it alone.
    const reader = createFileStore({ dir });
    expect(await reader.loadResult(bad)).toEqual(failed);
    expect((await reader.getTask(bad))?.status).toBe('failed');
  });

  it('a snapshot with a null context and its journal: rebuilt from the journal, with a warning', async () => {
    const [bad, good] = await unfinishedTasks();
    await withNullContext(bad);
    const { runtime, warned } = restorer();
    const { warnings } = await runtime.restore();
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'PERSISTENCE_CORRUPT', message: expect.stringContaining('context') }),
    ]);
    expect(warned.map((warning) => warning.taskId)).toEqual([bad]);
    expect((await runtime.result(bad))?.output).toBe('answer to one');
    expect((await runtime.result(good))?.output).toBe('answer to two');
    await runtime.shutdown();
  });

  it('a status record whose task id is a path (../../escaped) is skipped with a warning and never used as a path', async () => {
    const [one, two] = await unfinishedTasks();
    await appendFile(join(dir, 'tasks.jsonl'), `${JSON.stringify(queued('../../escaped'))}\n`);
    await appendFile(join(dir, 'tasks.jsonl'), `${JSON.stringify(started('../../escaped'))}\n`);
    const { runtime, store } = restorer();
    const { restored, warnings } = await runtime.restore();
    expect(restored).toEqual([one, two]);
    expect(warnings).toEqual([
      expect.objectContaining({
        code: 'PERSISTENCE_CORRUPT',
        path: join(dir, 'tasks.jsonl'),
        message: expect.stringContaining('"../../escaped"'),
      }),
      expect.objectContaining({
        code: 'PERSISTENCE_CORRUPT',
        message: expect.stringContaining('"../../escaped"'),
      }),
    ]);
    expect((await Promise.all([one, two].map((id) => runtime.result(id)))).map((r) => r?.status)).toEqual([
      'completed',
      'completed',
    ]);
    expect((await store.listTasks()).tasks.map((task) => task.taskId).sort()).toEqual([one, two].sort());
    expect(await store.getTask('../../escaped')).toBeUndefined();
    await runtime.shutdown();
    expect(existsSync(join(root, '..', 'escaped.json'))).toBe(false);
    expect(existsSync(join(dir, '..', '..', 'escaped.json'))).toBe(false);
  });

  it('a finished record whose task id is a path is never pruned through that path', async () => {
    const victim = join(root, 'escaped.json');
    await writeFile(victim, 'not the store’s');
    const store = createFileStore({ dir });
    store.appendStatus(queued('t1'));
    await store.flush();
    const id = '../escaped';
    await appendFile(
      join(dir, 'tasks.jsonl'),
      `${JSON.stringify(queued(id))}\n${JSON.stringify(finished(id))}\n`,
    );
    await store.prune({ olderThan: Number.MAX_SAFE_INTEGER });
    expect(await readFile(victim, 'utf8')).toBe('not the store’s');
    await store.close();
  });
});

describe('the file store opens only regular files', () => {
  it('a FIFO in place of a journal: restore does not hang; that task fails naming the file, the other resumes', async () => {
    const [bad, good] = await unfinishedTasks();
    const journal = join(dir, `${bad}.journal.jsonl`);
    await unlink(journal);
    mkfifo(journal);
    const { runtime } = restorer();
    const { restored } = await runtime.restore();
    expect(restored).toEqual([bad, good]);
    const failed = await runtime.result(bad);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'PERSISTENCE_CORRUPT' } });
    expect(failed?.error?.message).toContain(`"${journal}" is not a regular file (a FIFO)`);
    expect((await runtime.result(good))?.status).toBe('completed');
    await runtime.shutdown();
  }, 10_000);

  it('a FIFO in place of a snapshot: rebuilt from the journal; in place of the status log: a PersistenceError naming it', async () => {
    const [bad] = await unfinishedTasks();
    const snapshot = join(dir, `${bad}.snapshot.json`);
    await unlink(snapshot);
    mkfifo(snapshot);
    const store = createFileStore({ dir });
    const refused = await store.loadSnapshot(bad).catch((error: unknown) => error);
    expect(PersistenceError.isInstance(refused)).toBe(true);
    expect((refused as Error).message).toContain(`"${snapshot}" is not a regular file (a FIFO)`);
    await store.close();

    const log = join(dir, 'tasks.jsonl');
    await unlink(log);
    mkfifo(log);
    const { runtime } = restorer();
    const error = await runtime.restore().catch((caught: unknown) => caught);
    expect(PersistenceError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`"${log}" is not a regular file (a FIFO)`);
    await expect(runtime.history()).rejects.toThrow(`"${log}" is not a regular file`);
    await runtime.shutdown().catch(() => {});
  }, 10_000);

  it('a FIFO in place of a journal being written: the write fails with a PersistenceError naming it, without blocking', async () => {
    const store = createFileStore({ dir, durability: 'sync' });
    store.appendStatus(queued('t1'));
    const journal = join(dir, 't1.journal.jsonl');
    mkfifo(journal);
    store.appendJournal('t1', { v: 2, seq: 0, event: { type: 'task.started', at: 1, deadline: 2 } });
    const error = await store.flush().catch((caught: unknown) => caught);
    expect(PersistenceError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(journal);
    await store.close().catch(() => {});
  }, 10_000);
});

describe('values the file store cannot serialise', () => {
  it('a BigInt or a cycle fails that write with a PersistenceError naming the task, at flush(); nothing throws and the rest is written', async () => {
    const store = createFileStore({ dir });
    const cyclic: Record<string, unknown> = { text: 'loop' };
    cyclic.self = cyclic;
    store.appendStatus(queued('t1'));
    expect(() =>
      store.appendJournal('t1', {
        v: 2,
        seq: 0,
        event: { type: 'task.steered', at: 1, text: cyclic as never },
      }),
    ).not.toThrow();
    const bigResult = { ...finished('t1'), result: { ...finished('t1').result!, output: 10n } };
    expect(() => store.saveResult({ v: 2, result: bigResult.result })).not.toThrow();
    expect(() => store.appendStatus(bigResult)).not.toThrow();
    store.appendStatus(queued('t2'));
    const error = await store.flush().catch((caught: unknown) => caught);
    expect(PersistenceError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('task t1');
    expect((error as Error).message).toMatch(/BigInt|circular/i);
    const reader = createFileStore({ dir });
    expect((await reader.loadTasks()).tasks.map((task) => [task.spec.taskId, task.status])).toEqual([
      ['t1', 'queued'],
      ['t2', 'queued'],
    ]);
    await store.close();
  });

  it('in a batched background write (no flush call), nothing is thrown out of the timer', async () => {
    const store = createFileStore({ dir });
    store.appendStatus(queued('t1'));
    store.appendStatus({ ...started('t1'), at: 5n as never });
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    await expect(store.flush()).rejects.toThrow('task t1');
    await store.close();
  });
});
