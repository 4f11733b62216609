import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { finished, journalEntry, queued, started } from '../../test/helpers/store-records.js';
import { createFileStore, type FileStore } from './file-store.js';

const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const writerScript = fileURLToPath(new URL('../../test/helpers/concurrent-writer.ts', import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'troupe-concurrent-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Starts the writer process and resolves once it has opened the store. */
async function startWriter(prefix: string, tasks: number, padding: number, flushDelayMs = 0) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [
      '--conditions=source',
      '--import',
      'tsx',
      writerScript,
      dir,
      prefix,
      String(tasks),
      String(padding),
      String(flushDelayMs),
    ],
    { cwd: repositoryRoot, stdio: 'pipe' },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const lines = createInterface({ input: child.stdout });
  const said = (word: string) =>
    new Promise<void>((resolve, reject) => {
      lines.on('line', (line) => line === word && resolve());
      child.once('exit', (code) =>
        reject(new Error(`writer exited with ${code} before "${word}": ${stderr}`)),
      );
    });
  const ready = said('ready');
  const done = said('done');
  await ready;
  const exited = once(child, 'exit');
  return {
    go: () => child.stdin.write('go\n'),
    done,
    exited,
  };
}

async function writeTasks(store: FileStore, prefix: string, count: number, padding: number) {
  for (let index = 0; index < count; index++) {
    const taskId = `${prefix}-${index}`;
    store.appendStatus(queued(taskId, 1_000 + index, 'y'.repeat(padding)));
    store.appendJournal(taskId, journalEntry(0));
    store.appendStatus(started(taskId, 2_000 + index));
    if (index % 2 === 0) await store.flush();
  }
  await store.flush();
}

async function expectComplete(prefixes: Record<string, number>) {
  const { tasks, warnings } = await createFileStore({ dir }).loadTasks();
  expect(warnings).toEqual([]);
  for (const [prefix, count] of Object.entries(prefixes)) {
    const mine = tasks.filter((task) => task.spec.taskId.startsWith(`${prefix}-`));
    expect(mine).toHaveLength(count);
    for (const task of mine) expect(task.status).toBe('running');
  }
  const raw = await readFile(join(dir, 'tasks.jsonl'), 'utf8');
  expect(raw.endsWith('\n')).toBe(true);
  // Every line is one whole record. A blank line may appear: a store's first append checks the log
  // for a torn last line and may see another process's write still landing; readers skip it.
  for (const line of raw.split('\n').slice(0, -1))
    if (line !== '') expect(() => JSON.parse(line)).not.toThrow();
}

describe('two writers on one store directory', () => {
  it('a second store instance sees what the first flushed, and both can write in turn', async () => {
    const first = createFileStore({ dir });
    const second = createFileStore({ dir });
    first.appendStatus(queued('a1'));
    await first.flush();
    expect((await second.loadTasks()).tasks.map((task) => task.spec.taskId)).toEqual(['a1']);
    const writes = [writeTasks(first, 'a', 200, 500), writeTasks(second, 'b', 200, 500)];
    await Promise.all(writes);
    second.appendStatus(finished('a1', 9_000));
    await second.flush();
    const seen = await first.loadTasks();
    expect(seen.tasks.find((task) => task.spec.taskId === 'a1')?.status).toBe('completed');
    await expectComplete({ b: 200 });
  });

  it('lines from another process never interleave with ours (and it exits by itself when done)', async () => {
    const writer = await startWriter('child', 600, 6_000, 5);
    const store = createFileStore({ dir });
    writer.go();
    await writeTasks(store, 'parent', 600, 6_000);
    await writer.done;
    await writer.exited;
    await expectComplete({ child: 600, parent: 600 });
    const journal = await createFileStore({ dir }).loadJournal('child-599');
    expect(journal).toEqual({ entries: [journalEntry(0)], warnings: [] });
  });

  it("another process's lines survive a prune rewriting the log meanwhile", async () => {
    const writer = await startWriter('child', 400, 2_000);
    const store = createFileStore({ dir });
    let writing = true;
    writer.done.then(() => {
      writing = false;
    });
    writer.go();
    let pruned = 0;
    for (let round = 0; writing || round < 3; round++) {
      store.appendStatus(queued(`old-${round}`, 500));
      store.appendStatus(finished(`old-${round}`, 600));
      await store.flush();
      pruned += await store.prune({ olderThan: 700 });
    }
    await writer.exited;
    expect(pruned).toBeGreaterThanOrEqual(3);
    await expectComplete({ child: 400 });
    expect((await store.loadTasks()).tasks.some((task) => task.spec.taskId.startsWith('old-'))).toBe(false);
  });
});
