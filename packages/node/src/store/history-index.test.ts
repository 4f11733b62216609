import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore, type TaskQuery, type TaskStatusRecord, type TaskStore } from '@troupe/core';
import { storeRecords } from '@troupe/core/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore } from './file-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'troupe-history-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const { finishedRecord, queuedRecord, startedRecord } = storeRecords;

/** A deterministic mix: tasks created out of order, some finished, some running, some updated late. */
function records(from: number, count: number, seed: number): TaskStatusRecord[] {
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const out: TaskStatusRecord[] = [];
  for (let index = from; index < from + count; index++) {
    const taskId = `t${index}`;
    const createdAt = 1_000 + Math.floor(random() * 5_000);
    out.push(
      queuedRecord(taskId, createdAt, {
        agent: random() < 0.5 ? 'explore' : 'plan',
        sessionKey: `s${index % 3}`,
      }),
    );
    if (random() < 0.8) out.push(startedRecord(taskId, createdAt + 1));
    const end = random();
    if (end < 0.6) out.push(finishedRecord(taskId, createdAt + 2, end < 0.2 ? 'failed' : 'completed'));
  }
  return out;
}

/** Every page of `query`, 97 at a time. */
async function allPages(store: TaskStore, query: TaskQuery = {}): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.listTasks(
      cursor === undefined ? { ...query, limit: 97 } : { ...query, limit: 97, cursor },
    );
    seen.push(...page.tasks.map((task) => `${task.taskId}:${task.status}:${task.updatedAt}`));
    cursor = page.cursor;
  } while (cursor !== undefined);
  return seen;
}

async function expectSameHistory(file: TaskStore, memory: TaskStore): Promise<void> {
  for (const query of [
    {},
    { status: 'running' as const },
    { agent: 'plan', status: ['completed', 'failed'] as const },
  ])
    expect(await allPages(file, query)).toEqual(await allPages(memory, query));
  for (const taskId of ['t0', 't7', 't1999', 't2500', 'missing'])
    expect(await file.getTask(taskId)).toEqual(await memory.getTask(taskId));
}

describe('the file store history index (tasks.index)', () => {
  it('agrees with the fold of the log after folding long tails, across stores and processes writing in turn', async () => {
    const memory = createMemoryStore();
    const first = createFileStore({ dir });
    for (const record of records(0, 2_000, 1)) {
      first.appendStatus(record);
      memory.appendStatus(record);
    }
    await first.close();
    expect(existsSync(join(dir, 'tasks.index'))).toBe(true);
    await expectSameHistory(createFileStore({ dir }), memory);

    // Another store appends new tasks and ends running ones that the index already holds.
    const second = createFileStore({ dir });
    const later = [
      ...records(2_000, 700, 2),
      ...Array.from({ length: 50 }, (_, index) => finishedRecord(`t${index}`, 9_000 + index, 'cancelled')),
    ];
    for (const record of later) {
      second.appendStatus(record);
      memory.appendStatus(record);
    }
    await second.flush();
    await expectSameHistory(createFileStore({ dir }), memory);
    await second.close();
    await expectSameHistory(createFileStore({ dir }), memory);
  });

  it('is rebuilt from the log after a prune, and when the index file is damaged', async () => {
    const memory = createMemoryStore();
    const store = createFileStore({ dir });
    for (const record of records(0, 1_500, 3)) {
      store.appendStatus(record);
      memory.appendStatus(record);
    }
    await store.close();
    const pruning = createFileStore({ dir });
    expect(await pruning.prune({ olderThan: 3_000 })).toBe(await memory.prune({ olderThan: 3_000 }));
    await expectSameHistory(createFileStore({ dir }), memory);

    await writeFile(join(dir, 'tasks.index'), '{"k":[1,"t1"],"o":0,"n":5,"s":{}}\nnot a header\n');
    await expectSameHistory(createFileStore({ dir }), memory);
  });
});
