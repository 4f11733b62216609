import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { finished, queued, started } from '../../test/helpers/store-records.js';
import { createFileStore } from './file-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'troupe-index-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const line = (record: object) => `${JSON.stringify(record)}\n`;
const ids = async (store: ReturnType<typeof createFileStore>) =>
  (await store.listTasks({ limit: 100 })).tasks.map((task) => `${task.taskId}:${task.status}`);

describe('the file store index of tasks.jsonl', () => {
  it('sees what another process appends after its first read, and nothing twice', async () => {
    const reader = createFileStore({ dir });
    const writer = createFileStore({ dir });
    writer.appendStatus(queued('t1', 1_000));
    await writer.flush();
    expect(await ids(reader)).toEqual(['t1:queued']);

    writer.appendStatus(started('t1'));
    writer.appendStatus(queued('t2', 1_500));
    writer.appendStatus(finished('t1'));
    await writer.flush();
    expect(await ids(reader)).toEqual(['t2:queued', 't1:completed']);
    expect((await reader.getTask('t1'))?.result?.output).toBe('auth lives in src/auth.ts');
    // Unchanged log: the same answer.
    expect(await ids(reader)).toEqual(['t2:queued', 't1:completed']);
  });

  it('applies a line only once it is complete, and an exact duplicate line once', async () => {
    const path = join(dir, 'tasks.jsonl');
    const reader = createFileStore({ dir });
    const text = line(queued('t1', 1_000));
    await writeFile(path, text + text.slice(0, 20));
    expect(await ids(reader)).toEqual(['t1:queued']);
    // The rest of the torn line arrives: the second task appears; the first is not repeated.
    await appendFile(path, `${text.slice(20)}${line(queued('t2', 1_500))}`);
    expect(await ids(reader)).toEqual(['t2:queued', 't1:queued']);
    // An unreadable line is skipped, the lines after it are read.
    await appendFile(path, `{"not a record"\n${line(started('t2'))}`);
    expect(await ids(reader)).toEqual(['t2:running', 't1:queued']);
  });

  it('reads the log again from the start when it was rewritten (prune) or removed', async () => {
    const store = createFileStore({ dir, now: () => 10_000 });
    store.appendStatus(queued('old', 1_000));
    store.appendStatus(finished('old', 2_000));
    store.appendStatus(queued('new', 5_000));
    await store.flush();
    expect(await ids(store)).toEqual(['new:queued', 'old:completed']);
    expect(await store.prune({ olderThan: 3_000 })).toBe(1);
    expect(await ids(store)).toEqual(['new:queued']);
    expect(await store.getTask('old')).toBeUndefined();

    await rm(join(dir, 'tasks.jsonl'));
    expect(await ids(store)).toEqual([]);
  });
});
