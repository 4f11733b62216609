// Issue #14, items 3 and 13: one bad snapshot or journal event must not crash every restore();
// the task falls back to its journal, or fails alone with PERSISTENCE_CORRUPT naming the file; a
// task whose snapshot and journal are both gone is restarted with a warning.
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, type ModelAdapter, type RuntimeWarning } from '@troupe/core';
import { SCHEMA_VERSION } from '@troupe/core/store';
import { createFileStore } from '@troupe/node';
import { afterEach, describe, expect, it } from 'vitest';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const agents = [{ name: 'worker', description: 'Works.', systemPrompt: 'Work.', tools: [] }];
const hangs: ModelAdapter = { generate: () => new Promise(() => {}) };
const answers: ModelAdapter = {
  generate: async () => ({ content: [{ type: 'text', text: 'finished' }], usage: { input: 1, output: 1 } }),
};

/** Two running tasks persisted in a file store, then the runtime stops without ending them. */
async function twoUnfinishedTasks() {
  const dir = mkdtempSync(join(tmpdir(), 'troupe-restore-'));
  dirs.push(dir);
  const store = createFileStore({ dir, snapshotDelayMs: 0 });
  const runtime = createRuntime({ model: hangs, agents, store });
  const ids = [0, 1].map(
    (index) => runtime.spawn({ agent: 'worker', prompt: `job ${index}`, description: 'job' }).id,
  );
  await runtime.shutdown({ keepTasks: true });
  return { dir, ids: ids as [string, string] };
}

async function restoreAll(dir: string) {
  const runtime = createRuntime({
    model: answers,
    agents,
    store: createFileStore({ dir, snapshotDelayMs: 0 }),
  });
  const warnings: RuntimeWarning[] = [];
  runtime.on('runtime.warning', (warning) => warnings.push(warning));
  const { restored, warnings: storeWarnings } = await runtime.restore();
  const results = await Promise.all(
    restored.map(
      (id) =>
        new Promise((resolve) => {
          const poll = () => {
            const info = runtime.get(id);
            if (info && ['completed', 'failed', 'cancelled'].includes(info.status)) resolve(info);
            else setTimeout(poll, 10);
          };
          poll();
        }),
    ),
  );
  await runtime.shutdown();
  return {
    restored,
    results: results as {
      id: string;
      status: string;
      result?: { error?: { code: string; message: string } };
    }[],
    warnings,
    storeWarnings,
  };
}

const badSnapshot = (dir: string, id: string) =>
  writeFileSync(
    join(dir, `${id}.snapshot.json`),
    JSON.stringify({
      v: SCHEMA_VERSION,
      taskId: id,
      journalLength: 0,
      savedAt: 0,
      snapshot: {
        status: 'active',
        value: { running: 'no-such-state' },
        context: {},
        children: {},
        historyValue: {},
      },
    }),
  );
const badJournal = (dir: string, id: string) =>
  writeFileSync(
    join(dir, `${id}.journal.jsonl`),
    `${JSON.stringify({ v: SCHEMA_VERSION, seq: 0, event: { type: 'task.started', at: 1, deadline: 10_000_000_000_000 } })}\n${JSON.stringify({ v: SCHEMA_VERSION, seq: 1, event: { type: 'model.responded', at: 2, turn: 1 } })}\n`,
  );

describe('restore() with a corrupt store', () => {
  it('a snapshot naming a state that does not exist falls back to the journal; the other task restores too', async () => {
    const { dir, ids } = await twoUnfinishedTasks();
    badSnapshot(dir, ids[0]);
    const { results } = await restoreAll(dir);
    expect(results.map((result) => result.status)).toEqual(['completed', 'completed']);
  });

  it('a journal event missing a field, with no usable snapshot, fails that task alone with PERSISTENCE_CORRUPT naming the file', async () => {
    const { dir, ids } = await twoUnfinishedTasks();
    badSnapshot(dir, ids[0]);
    badJournal(dir, ids[0]);
    const { results, warnings } = await restoreAll(dir);
    const [broken, fine] = results;
    expect(broken?.status).toBe('failed');
    expect(broken?.result?.error?.code).toBe('PERSISTENCE_CORRUPT');
    expect(broken?.result?.error?.message).toContain(`${ids[0]}.journal.jsonl`);
    expect(fine?.status).toBe('completed');
    expect(
      warnings.some((warning) => warning.code === 'PERSISTENCE_CORRUPT' && warning.taskId === ids[0]),
    ).toBe(true);
  });

  it('a task whose snapshot and journal are both gone is restarted from scratch with a warning', async () => {
    const { dir, ids } = await twoUnfinishedTasks();
    unlinkSync(join(dir, `${ids[0]}.snapshot.json`));
    unlinkSync(join(dir, `${ids[0]}.journal.jsonl`));
    const { results, warnings } = await restoreAll(dir);
    expect(results.map((result) => result.status)).toEqual(['completed', 'completed']);
    expect(warnings).toContainEqual(expect.objectContaining({ code: 'TASK_RESTARTED', taskId: ids[0] }));
  });
});
