import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PersistenceError } from '@troupe/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { journalEntry, queued, resultOf, snapshotOf } from '../../test/helpers/store-records.js';
import { createFileStore } from './file-store.js';

const fixtures = fileURLToPath(new URL('../../test/fixtures/store/', import.meta.url));
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'troupe-fixtures-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function storeOver(name: string) {
  await cp(join(fixtures, name), dir, { recursive: true });
  return createFileStore({ dir });
}

describe('file store fixtures, schema version 1', () => {
  it('loads every document of a version-1 store', async () => {
    const store = await storeOver('v1');
    const { tasks, warnings } = await store.loadTasks();
    expect(warnings).toEqual([]);
    expect(tasks).toEqual([
      {
        spec: queued('t_alpha', 1_000).spec,
        status: 'completed',
        updatedAt: 2_000,
        result: resultOf('t_alpha'),
      },
      { spec: queued('t_beta', 1_010).spec, status: 'running', updatedAt: 1_110 },
    ]);
    expect(await store.loadResult('t_alpha')).toEqual(resultOf('t_alpha'));
    expect(await store.loadSnapshot('t_beta')).toEqual(snapshotOf('t_beta', 2));
    expect((await store.loadJournal('t_beta')).entries).toEqual([0, 1, 2].map((seq) => journalEntry(seq)));
  });
});

describe('file store fixtures, damaged', () => {
  it('loads the status log around bad lines, with a warning naming file and line for each', async () => {
    const store = await storeOver('corrupt');
    const { tasks, warnings } = await store.loadTasks();
    const path = join(dir, 'tasks.jsonl');
    expect(tasks.map((task) => [task.spec.taskId, task.status])).toEqual([
      ['t_alpha', 'running'],
      ['t_beta', 'queued'],
    ]);
    expect(warnings.map(({ code, line }) => [code, line])).toEqual([
      ['PERSISTENCE_CORRUPT', 2],
      ['PERSISTENCE_VERSION', 4],
      ['PERSISTENCE_CORRUPT', 5],
      ['PERSISTENCE_CORRUPT', 7],
    ]);
    for (const warning of warnings) expect(warning.path).toBe(path);
    expect(warnings[0]!.message).toMatch(new RegExp(`^${path}:2: The status record is not valid JSON`));
    expect(warnings[1]!.message).toContain(
      'has schema version 99, but this troupe reads versions 1 and 2: it was written by a newer troupe',
    );
    expect(warnings[2]!.message).toMatch(/is malformed \(status: .*at: /);
    expect(warnings[3]!.message).toContain(':7: the last line is incomplete (a write was cut off');
  });

  it('throws PersistenceError with the path for unreadable snapshots and results', async () => {
    const store = await storeOver('corrupt');
    const expectError = async (load: Promise<unknown>, code: string, file: string, text: string) => {
      const error = await load.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(PersistenceError);
      expect(error).toMatchObject({ code, path: join(dir, file) });
      expect((error as Error).message).toContain(text);
    };
    await expectError(
      store.loadSnapshot('t_alpha'),
      'PERSISTENCE_CORRUPT',
      't_alpha.snapshot.json',
      'is not valid JSON',
    );
    await expectError(
      store.loadSnapshot('t_beta'),
      'PERSISTENCE_VERSION',
      't_beta.snapshot.json',
      'schema version 99',
    );
    await expectError(
      store.loadSnapshot('t_gamma'),
      'PERSISTENCE_CORRUPT',
      't_gamma.snapshot.json',
      'journalLength',
    );
    await expectError(
      store.loadResult('t_alpha'),
      'PERSISTENCE_CORRUPT',
      't_alpha.json',
      'The result document is malformed',
    );
  });

  it('loads a journal up to its first gap, skipping repeats, bad versions and a torn end', async () => {
    const store = await storeOver('corrupt');
    const alpha = await store.loadJournal('t_alpha');
    expect(alpha.entries).toEqual([journalEntry(0), journalEntry(1)]);
    expect(
      alpha.warnings.map(({ line, message }) => [line, message.split(': ').slice(1).join(': ')]),
    ).toEqual([
      [3, 'seq 1 repeats an earlier entry; the line was skipped.'],
      [4, 'seq 3 follows seq 1: entries are missing, so this line and the rest of the journal were skipped.'],
      [5, 'the last line is incomplete (a write was cut off, probably by a crash); it was skipped.'],
    ]);
    const beta = await store.loadJournal('t_beta');
    expect(beta.entries).toEqual([journalEntry(0)]);
    expect(beta.warnings).toEqual([expect.objectContaining({ code: 'PERSISTENCE_VERSION', line: 2 })]);
  });

  it('a snapshot with the wrong task id is corrupt', async () => {
    const store = await storeOver('v1');
    await cp(join(dir, 't_beta.snapshot.json'), join(dir, 't_other.snapshot.json'));
    await expect(store.loadSnapshot('t_other')).rejects.toThrow(
      'the snapshot belongs to task t_beta, not t_other',
    );
  });
});
