import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PersistenceError, ValidationError } from '@troupe/core';
import { describe, expect, it, vi } from 'vitest';
import {
  finished,
  journalEntry,
  queued,
  resultOf,
  snapshotOf,
  started,
} from '../../test/helpers/store-records.js';
import { useTempDir } from '../../test/helpers/temp-dir.js';
import { createFileStore } from './file-store.js';

const temp = useTempDir('troupe-store-');

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const lines = async (path: string) =>
  (await readFile(join(temp.path, path), 'utf8')).split('\n').filter(Boolean);

describe('createFileStore', () => {
  it('round-trips every record type through the files, for a fresh store over the same directory', async () => {
    const store = createFileStore({ dir: temp.path });
    store.appendStatus(queued('t1'));
    store.appendStatus(started('t1'));
    store.appendJournal('t1', journalEntry(0));
    store.appendJournal('t1', journalEntry(1));
    store.saveSnapshot('t1', () => snapshotOf('t1', 2));
    store.saveResult({ v: 2, result: resultOf('t1') });
    store.appendStatus(finished('t1'));
    store.appendStatus(queued('t2', 1_500));
    await store.flush();

    const reader = createFileStore({ dir: temp.path });
    const { tasks, warnings } = await reader.loadTasks();
    expect(warnings).toEqual([]);
    expect(tasks).toEqual([
      { spec: queued('t1').spec, status: 'completed', updatedAt: 2_000, result: resultOf('t1') },
      { spec: queued('t2', 1_500).spec, status: 'queued', updatedAt: 1_500 },
    ]);
    expect(await reader.loadJournal('t1')).toEqual({
      entries: [journalEntry(0), journalEntry(1)],
      warnings: [],
    });
    expect(await reader.loadSnapshot('t1')).toEqual(snapshotOf('t1', 2));
    expect(await reader.loadResult('t1')).toEqual(resultOf('t1'));
    expect(await reader.loadSnapshot('t2')).toBeUndefined();
    expect(await reader.loadResult('t2')).toBeUndefined();
    expect(await reader.loadJournal('t2')).toEqual({ entries: [], warnings: [] });
    expect(await lines('tasks.jsonl')).toHaveLength(4);
    expect(JSON.parse(await readFile(join(temp.path, 't1.json'), 'utf8'))).toEqual({
      v: 2,
      result: resultOf('t1'),
    });
  });

  it('buffers writes until the next event-loop turn, or until flush()', async () => {
    const store = createFileStore({ dir: temp.path });
    store.appendStatus(queued('t1'));
    store.appendJournal('t1', journalEntry(0));
    expect(existsSync(join(temp.path, 'tasks.jsonl'))).toBe(false);
    await nextTurn();
    expect(await lines('tasks.jsonl')).toHaveLength(1);
    expect(await lines('t1.journal.jsonl')).toHaveLength(1);
    store.appendStatus(started('t1'));
    await store.flush();
    expect(await lines('tasks.jsonl')).toHaveLength(2);
  });

  it('writes snapshots and results after snapshotDelayMs, coalescing them meanwhile', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const store = createFileStore({ dir: temp.path, snapshotDelayMs: 100 });
      let produced = 0;
      store.appendStatus(queued('t1'));
      store.saveSnapshot('t1', () => snapshotOf('t1', ++produced));
      await nextTurn();
      expect(await lines('tasks.jsonl')).toHaveLength(1);
      expect(existsSync(join(temp.path, 't1.snapshot.json'))).toBe(false);
      store.saveSnapshot('t1', () => snapshotOf('t1', ++produced));
      store.saveResult({ v: 2, result: resultOf('t1') });
      vi.advanceTimersByTime(99);
      expect(existsSync(join(temp.path, 't1.snapshot.json'))).toBe(false);
      vi.advanceTimersByTime(1);
      expect(produced).toBe(1);
      expect(existsSync(join(temp.path, 't1.snapshot.json'))).toBe(true);
      expect(existsSync(join(temp.path, 't1.json'))).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes what is buffered when the process exits', async () => {
    const script = fileURLToPath(new URL('../../test/helpers/exit-writer.ts', import.meta.url));
    execFileSync(process.execPath, ['--conditions=source', '--import', 'tsx', script, temp.path], {
      cwd: fileURLToPath(new URL('../../../../', import.meta.url)),
    });
    const store = createFileStore({ dir: temp.path });
    expect((await store.loadTasks()).tasks).toHaveLength(1);
    expect((await store.loadJournal('t1')).entries).toEqual([journalEntry(0)]);
    expect(await store.loadSnapshot('t1')).toEqual(snapshotOf('t1', 1));
  });

  it('writes through at once with durability "sync"', async () => {
    const store = createFileStore({ dir: temp.path, durability: 'sync' });
    store.appendStatus(queued('t1'));
    store.saveSnapshot('t1', () => snapshotOf('t1', 0));
    expect(await lines('tasks.jsonl')).toHaveLength(1);
    expect(existsSync(join(temp.path, 't1.snapshot.json'))).toBe(true);
  });

  it('produces and writes only the latest snapshot of a task per flush', async () => {
    const store = createFileStore({ dir: temp.path });
    const produced: number[] = [];
    for (const turn of [1, 2, 3]) {
      store.saveSnapshot('t1', () => {
        produced.push(turn);
        return snapshotOf('t1', turn, `turn ${turn}`);
      });
    }
    await store.flush();
    expect(produced).toEqual([3]);
    expect(await store.loadSnapshot('t1')).toEqual(snapshotOf('t1', 3, 'turn 3'));
    await store.flush();
    expect(produced).toEqual([3]);
  });

  it('reads its own buffered writes', async () => {
    const store = createFileStore({ dir: temp.path, flushDelayMs: 60_000 });
    store.appendStatus(queued('t1'));
    store.appendJournal('t1', journalEntry(0));
    expect((await store.loadTasks()).tasks).toHaveLength(1);
    expect((await store.loadJournal('t1')).entries).toHaveLength(1);
  });

  it('refuses task ids that cannot name a file, naming the id and the directory', async () => {
    const store = createFileStore({ dir: temp.path });
    for (const id of ['../escape', 'a/b', '', '.hidden', 'x.snapshot', 'x.journal', 'a\\b']) {
      expect(() => store.appendJournal(id, journalEntry(0))).toThrow(ValidationError);
    }
    expect(() => store.saveSnapshot('a/b', () => snapshotOf('a/b', 0))).toThrow(
      `Task id "a/b" cannot name a file in the task store at "${temp.path}"`,
    );
    expect(() => store.appendStatus({ ...started('x'), taskId: '../x' })).toThrow(ValidationError);
    await expect(store.loadSnapshot('../../etc/passwd')).rejects.toThrow(ValidationError);
  });

  it('rejects flush() with the path when writing fails, keeps the writes, and writes them once it can', async () => {
    const blocked = join(temp.path, 'store');
    await writeFile(blocked, 'a file where the directory should be');
    const store = createFileStore({ dir: blocked });
    store.appendStatus(queued('t1'));
    const error = await store.flush().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PersistenceError);
    expect(error).toMatchObject({ code: 'PERSISTENCE_FAILED', path: blocked });
    await rm(blocked);
    await store.flush();
    expect((await createFileStore({ dir: blocked }).loadTasks()).tasks).toHaveLength(1);
  });

  it('reports a snapshot that cannot be produced and still writes the rest', async () => {
    const store = createFileStore({ dir: temp.path });
    store.appendStatus(queued('t1'));
    store.saveSnapshot('t1', () => {
      throw new Error('cyclic context');
    });
    await expect(store.flush()).rejects.toThrow('Could not produce the snapshot of task t1: cyclic context');
    expect((await store.loadTasks()).tasks).toHaveLength(1);
    await store.flush();
  });

  it('repairs a torn last line before appending, so new lines stay readable', async () => {
    await writeFile(
      join(temp.path, 'tasks.jsonl'),
      `${JSON.stringify(queued('t1'))}\n{"v":1,"taskId":"t1","ev`,
    );
    const store = createFileStore({ dir: temp.path });
    store.appendStatus(started('t1'));
    await store.flush();
    const { tasks, warnings } = await store.loadTasks();
    expect(tasks[0]?.status).toBe('running');
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'PERSISTENCE_CORRUPT', path: join(temp.path, 'tasks.jsonl'), line: 2 }),
    ]);
  });

  it('refuses writes after close, having flushed', async () => {
    const store = createFileStore({ dir: temp.path, flushDelayMs: 60_000 });
    store.appendStatus(queued('t1'));
    await store.close();
    expect(await lines('tasks.jsonl')).toHaveLength(1);
    expect(() => store.appendStatus(started('t1'))).toThrow(/is closed; writes are refused/);
  });

  it('validates its options', () => {
    expect(() => createFileStore({ dir: temp.path, durability: 'eventually' as never })).toThrow(
      /durability must be/,
    );
    expect(() => createFileStore({ dir: temp.path, flushDelayMs: -1 })).toThrow(
      /flushDelayMs must be a number ≥ 0/,
    );
  });

  it('defaults to ~/.troupe/tasks', () => {
    expect(createFileStore().dir).toMatch(/\.troupe\/tasks$/);
  });
});
